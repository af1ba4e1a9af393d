package io.metaquorum.sim.network;

import io.metaquorum.raft.message.RaftMessage;

/** Sees every message and transport failure as it is delivered (for debugging a seed). */
@FunctionalInterface
public interface DeliveryObserver {
    DeliveryObserver NONE = (to, message) -> { };

    void onDeliver(int to, RaftMessage message);
}

package io.metaquorum.sim.network;

import io.metaquorum.raft.message.RaftMessage;

/** A node as the network sees it: up or down, which incarnation, and where messages go. */
public interface NetworkEndpoint {
    boolean isRunning();

    /** Increases at every start of the node's process; a message for an older one is dropped. */
    long incarnation();

    void deliver(RaftMessage message);
}

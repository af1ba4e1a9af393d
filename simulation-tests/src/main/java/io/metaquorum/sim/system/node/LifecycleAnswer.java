package io.metaquorum.sim.system.node;

import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationResponse;

/** The controller's answer to one broker lifecycle call, in the protocol's types the broker's lifecycle reads. */
public sealed interface LifecycleAnswer {
    record Registration(BrokerRegistrationResponse response) implements LifecycleAnswer {
    }

    record Heartbeat(BrokerHeartbeatResponse response) implements LifecycleAnswer {
    }
}

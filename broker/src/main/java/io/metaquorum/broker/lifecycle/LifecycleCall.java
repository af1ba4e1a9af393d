package io.metaquorum.broker.lifecycle;

import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerRegistrationRequest;

/** The one call {@link BrokerLifecycle} wants sent to the active controller next. */
public sealed interface LifecycleCall {
    /** Register this incarnation. */
    record Register(BrokerRegistrationRequest request) implements LifecycleCall {
    }

    /** Heartbeat with the broker epoch and the replayed metadata offset. */
    record Heartbeat(BrokerHeartbeatRequest request) implements LifecycleCall {
    }
}

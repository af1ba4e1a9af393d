package io.metaquorum.broker.lifecycle;

/**
 * Where a broker is in its life with the controllers (Kafka's {@code BrokerState}, the
 * states a KRaft broker can be in). Transitions, all made by {@link BrokerLifecycle}:
 *
 * <pre>
 * REGISTERING ──registered──> RECOVERY ──heartbeat says unfenced──> RUNNING
 *      ^                         │  ^                                  │
 *      └── stale broker epoch ───┘  └──── heartbeat says fenced ───────┘
 * RUNNING ──controlled shutdown──> PENDING_CONTROLLED_SHUTDOWN ──leaderships moved──> SHUT_DOWN
 * REGISTERING / RECOVERY ──controlled shutdown──> SHUT_DOWN (it leads nothing)
 * </pre>
 */
public enum BrokerState {
    /** Asking the active controller to register this incarnation. */
    REGISTERING,
    /** Registered and fenced: replaying the metadata log up to its registration. */
    RECOVERY,
    /** Unfenced: may lead partitions; heartbeats keep its session. */
    RUNNING,
    /** Asked to shut down; waits until the controller has moved its leaderships away. */
    PENDING_CONTROLLED_SHUTDOWN,
    /** Done: the process may exit. */
    SHUT_DOWN
}

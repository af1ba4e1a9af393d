package io.metaquorum.broker.node;

import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationResponse;

/**
 * The broker's lifecycle RPCs as a port: sends one call to one controller and reports how it
 * ended, later. Production's adapter is gRPC, the simulator's its network.
 *
 * <p>Contract: the callback is invoked at most once, and on the broker node's own thread (an
 * adapter whose answers arrive elsewhere hands them over first); it may be invoked after the
 * node has given up on the call, which the node then ignores.
 */
public interface LifecycleTransport {
    /** Sends {@code call} to controller {@code controllerId}; never blocks on the answer. */
    void send(int controllerId, LifecycleCall call, Callback callback);

    /** How one call ended. */
    interface Callback {
        /** The controller answered a {@link LifecycleCall.Register}. */
        void onRegistration(BrokerRegistrationResponse response);

        /** The controller answered a {@link LifecycleCall.Heartbeat}. */
        void onHeartbeat(BrokerHeartbeatResponse response);

        /** No answer: refused, unreachable, lost, or timed out in the transport. */
        void onFailure(String reason);
    }
}

package io.metaquorum.sim.system.world;

import io.metaquorum.node.admin.AdminMethod;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.Forwarding;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.system.workload.SimCallers;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A simulated node's {@link Forwarding}: the write goes over the simulated network
 * ({@link SystemRpc}) to the controller voter's production handlers, marked as forwarded by
 * this node, under the deadline production's forwarder gives it. The admin attempt it
 * carries goes along, so the driver learns which controller ran it. Request traces are not
 * carried: a simulated request has no client asking for one.
 */
final class SimForwarding implements Forwarding {
    /** The forwarded call's own deadline beyond what the request may wait on the controller. */
    static final long FORWARD_TIMEOUT_MS = 2_000;

    private final SimNode machine;
    private final SystemWorld world;
    /** Whether the forwarding process incarnation still runs (answers to a dead one are dropped). */
    private final BooleanSupplier alive;

    SimForwarding(SimNode machine, SystemWorld world, BooleanSupplier alive) {
        this.machine = machine;
        this.world = world;
        this.alive = alive;
    }

    @Override
    public boolean canForwardTo(int controllerId) {
        return controllerId >= 1 && controllerId != machine.nodeId() && controllerId <= world.cluster().maxNodeId()
                && world.cluster().node(controllerId).isVoter();
    }

    @Override
    public <Q, R> void forward(int controllerId, AdminMethod<Q, R> method, Q request, long waitMs,
                               CallOrigin clientOrigin, Consumer<R> onAnswer, Consumer<Throwable> onFailure) {
        boolean[] done = {false};
        AdminDriver.AttemptOps attempt = world.admin().currentAttempt();
        // The controller takes a node's word for who the client is, as the server's identity check does,
        // once the node's own principal may CLUSTER_ACTION (a super user here, as production's nodes are).
        CallOrigin origin = CallOrigin.forwardedBy(machine.nodeId())
                .by(clientOrigin.caller().via(SimCallers.node(machine.nodeId())));
        world.rpc().<R>call(machine.nodeId(), () -> alive.getAsBoolean() && !done[0], controllerId, (callee, reply) -> {
            if (callee.role() instanceof ControllerRole controller) {
                world.admin().runAttempt(attempt, () -> controller.serve(method, origin, request, reply));
                callee.nudge();
            }
        }, answer -> finish(done, () -> onAnswer.accept(answer)),
                () -> finish(done, () -> onFailure.accept(new IllegalStateException("connection refused by node "
                        + controllerId))));
        world.scheduler().scheduleAfter(FORWARD_TIMEOUT_MS + waitMs, EventKind.CLIENT, machine.nodeId(), () -> {
            if (alive.getAsBoolean()) {
                finish(done, () -> onFailure.accept(new IllegalStateException("deadline exceeded")));
            }
        });
    }

    private void finish(boolean[] done, Runnable outcome) {
        if (done[0] || machine.isPaused()) {
            return;
        }
        done[0] = true;
        outcome.run();
        machine.nudge();
    }
}

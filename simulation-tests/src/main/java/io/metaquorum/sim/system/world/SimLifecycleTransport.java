package io.metaquorum.sim.system.world;

import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.node.LifecycleTransport;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.system.node.LifecycleAnswer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A broker's lifecycle calls in system mode: each goes over {@link SystemRpc} to the machine
 * of the controller the broker node chose, whose controller side answers it. Outcomes arrive
 * on the broker's simulated thread, as the node's port requires; a paused broker reads none
 * (the node's own deadline fails its call once it runs again).
 */
final class SimLifecycleTransport implements LifecycleTransport {
    /** How a call is handled on the callee's machine: the one seam to the controller side. */
    @FunctionalInterface
    interface ControllerSide {
        void handle(SimNode callee, LifecycleCall call, Consumer<LifecycleAnswer> reply);
    }

    /** Sees every answer handed to the broker, around its {@code delivery}. */
    @FunctionalInterface
    interface AnswerTap {
        void deliver(LifecycleAnswer answer, Runnable delivery);
    }

    private final SimNode machine;
    private final SystemRpc rpc;
    private final BooleanSupplier callerAlive;
    private final ControllerSide controllers;
    private final AnswerTap tap;

    SimLifecycleTransport(SimNode machine, SystemRpc rpc, BooleanSupplier callerAlive, ControllerSide controllers,
                          AnswerTap tap) {
        this.machine = machine;
        this.rpc = rpc;
        this.callerAlive = callerAlive;
        this.controllers = controllers;
        this.tap = tap;
    }

    @Override
    public void send(int controllerId, LifecycleCall call, Callback callback) {
        rpc.<LifecycleAnswer>call(machine.nodeId(), callerAlive, controllerId,
                (callee, reply) -> controllers.handle(callee, call, reply),
                answer -> arrive(() -> tap.deliver(answer, () -> deliver(answer, callback))),
                () -> arrive(() -> callback.onFailure("connection refused")));
    }

    private void arrive(Runnable outcome) {
        if (machine.isPaused()) {
            return;
        }
        outcome.run();
        machine.nudge();
    }

    private static void deliver(LifecycleAnswer answer, Callback callback) {
        if (answer instanceof LifecycleAnswer.Registration registration) {
            callback.onRegistration(registration.response());
        } else if (answer instanceof LifecycleAnswer.Heartbeat heartbeat) {
            callback.onHeartbeat(heartbeat.response());
        }
    }
}

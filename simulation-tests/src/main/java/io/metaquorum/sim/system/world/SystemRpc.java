package io.metaquorum.sim.system.world;

import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.network.NetworkProfile;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The system layer's calls over the simulated network: broker lifecycle calls to the active
 * controller and admin calls from clients to controller nodes. They share the raft traffic's
 * links (a partition or black hole cuts them too) and its delay and loss profile, drawn from a
 * stream of their own. A request reaches only the callee incarnation that was running when it
 * was sent; a refused call (callee down, link refused) fails at the caller after a round trip;
 * a lost request or answer, or a callee that dies holding it, leaves the caller to its own
 * deadline, as does a request reaching a paused process (simpler than holding it in the
 * socket buffers as raft messages are). Client calls come from outside the cluster
 * ({@link #CLIENT}): no link cuts them, but their TLS handshake with a node whose certificate
 * is bad fails as any other does ({@link io.metaquorum.sim.network.LinkTable#handshakeFails}):
 * refused after a round trip, like every call from or to that node. A call in flight when a
 * certificate goes bad is dropped (its caller's deadline ends it): this layer keeps no open
 * calls to reset.
 */
public final class SystemRpc {
    /** The caller id of an admin client, a machine outside the cluster. */
    public static final int CLIENT = 0;

    /** The callee's part: handles the request, answering through {@code reply} now or later. */
    @FunctionalInterface
    public interface Server<A> {
        void handle(SimNode callee, Consumer<A> reply);
    }

    private final EventScheduler scheduler;
    private final SimNetwork network;
    private final SimCluster cluster;
    private final Random random;
    private long sent;
    private long answered;
    private long refused;

    public SystemRpc(EventScheduler scheduler, SimNetwork network, SimCluster cluster, Random random) {
        this.scheduler = scheduler;
        this.network = network;
        this.cluster = cluster;
        this.random = random;
    }

    public long sentCount() {
        return sent;
    }

    public long answeredCount() {
        return answered;
    }

    /** Calls refused at their caller: callee down, link refused, or a failed TLS handshake. */
    public long refusedCount() {
        return refused;
    }

    /**
     * Sends a request from {@code from} to node {@code to}; {@code callerAlive} tells whether
     * the caller (its process incarnation) is still there to hear the answer.
     */
    public <A> void call(int from, BooleanSupplier callerAlive, int to, Server<A> server, Consumer<A> onAnswer,
                         Runnable onRefused) {
        sent++;
        SimNode callee = to >= 1 && to <= cluster.maxNodeId() ? cluster.node(to) : null;
        if (callee == null || !callee.isRunning() || refuses(from, to)) {
            scheduler.scheduleAfter(delayMs() + delayMs(), EventKind.DELIVER, from, () -> {
                if (callerAlive.getAsBoolean()) {
                    refused++;
                    onRefused.run();
                }
            });
            return;
        }
        long incarnation = callee.incarnation();
        if (lost()) {
            return;
        }
        scheduler.scheduleAfter(delayMs(), EventKind.DELIVER, to, () -> {
            // A paused callee (SIGSTOP) reads nothing: the request is dropped and the caller's deadline ends the call.
            if (!callee.isRunning() || callee.incarnation() != incarnation || callee.isPaused() || !canSend(from, to)) {
                return;
            }
            server.handle(callee, answer -> answerBack(from, to, callerAlive, answer, onAnswer));
        });
    }

    private <A> void answerBack(int from, int to, BooleanSupplier callerAlive, A answer, Consumer<A> onAnswer) {
        if (lost()) {
            return;
        }
        scheduler.scheduleAfter(delayMs(), EventKind.DELIVER, from, () -> {
            if (canSend(to, from) && callerAlive.getAsBoolean()) {
                answered++;
                onAnswer.accept(answer);
            }
        });
    }

    private boolean refuses(int from, int to) {
        return from == CLIENT ? network.links().handshakeFails(from, to) : network.links().refuses(from, to);
    }

    private boolean canSend(int from, int to) {
        if (from == CLIENT || to == CLIENT) {
            return !network.links().handshakeFails(from, to);
        }
        return network.links().canSend(from, to);
    }

    private boolean lost() {
        return random.nextDouble() < network.profile().lossProbability();
    }

    private long delayMs() {
        NetworkProfile profile = network.profile();
        long delay = profile.minDelayMs();
        if (profile.meanExtraDelayMs() > 0) {
            double extra = -profile.meanExtraDelayMs() * Math.log(1 - random.nextDouble());
            delay += (long) Math.min(extra, 20.0 * profile.meanExtraDelayMs());
        }
        return delay;
    }
}

package io.metaquorum.sim;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.network.DeliveryObserver;
import io.metaquorum.sim.network.LinkTable;
import io.metaquorum.sim.network.NetworkStats;
import io.metaquorum.sim.system.world.SystemWorld;
import io.metaquorum.sim.workload.FaultKind;
import io.metaquorum.sim.workload.WorkloadProfile;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * A scripted run for the known hard cases: the same world, event loop and invariants as a
 * seeded {@link Simulation}, but no random faults; the script crashes, wipes and partitions
 * nodes itself and waits for conditions. Nodes crashed by the script stay down until it
 * restarts them. Every wait is bounded in simulated time; a violated invariant or a missed
 * bound throws {@link CheckFailure}.
 */
public final class Scenario {
    /** A steady load: an append of 1-3 records every ~20 ms, snapshots every 150 records. */
    public static final WorkloadProfile STEADY_LOAD = new WorkloadProfile(20, 3, 0, 150);

    private final SimulationOptions options;
    private final World world;
    private final EventLoop loop;

    private Scenario(SimulationOptions options) {
        this.options = options;
        this.world = WorldBuilder.build(options, WorldBuilder.defaultModel());
        this.loop = new EventLoop(world, EventObserver.NONE);
        world.workload().setProfile(STEADY_LOAD);
        world.faults().start();
        world.startLoad();
        loop.observeAll();
    }

    /** Starts a cluster of {@code voters} and {@code observers} on a reliable network, with a steady load. */
    public static Scenario start(long seed, int voters, int observers) {
        return new Scenario(new SimulationOptions(seed, 1, EnumSet.noneOf(FaultKind.class), false, voters, observers,
                BrokenVariant.NONE, false));
    }

    /**
     * Starts a system-mode cluster on a reliable network: controllers on the {@code voters}, brokers
     * on the {@code observers}, the seeded admin workload, the system invariants after every event.
     */
    public static Scenario startSystem(long seed, int voters, int observers) {
        return new Scenario(new SimulationOptions(seed, 1, EnumSet.noneOf(FaultKind.class), false, voters, observers,
                BrokenVariant.NONE, false, true));
    }

    /** The system layer (system mode only). */
    public SystemWorld system() {
        return world.system();
    }

    /** Replaces the client load (for example a heavier one than {@link #STEADY_LOAD}). */
    public void setWorkload(WorkloadProfile profile) {
        world.workload().setProfile(profile);
    }

    public SimCluster cluster() {
        return world.cluster();
    }

    public LinkTable links() {
        return world.network().links();
    }

    /** What the network did so far (messages, resets, timeouts). */
    public NetworkStats networkStats() {
        return world.network().stats();
    }

    public long nowMs() {
        return world.scheduler().nowMs();
    }

    /** The highest offset known committed (the end of the checkers' committed prefix). */
    public long committedOffset() {
        return world.checker().committed().committedEndOffset();
    }

    public SimNode node(int nodeId) {
        return world.cluster().node(nodeId);
    }

    public void runFor(long durationMs) {
        loop.runFor(durationMs);
    }

    public void runUntil(BooleanSupplier condition, long boundMs, String what) {
        loop.runUntil(condition, boundMs, what);
    }

    /** Waits for a leader (the running one of the highest epoch) other than {@code excluded}. */
    public SimNode awaitLeader(long boundMs, Set<Integer> excluded) {
        loop.runUntil(() -> leaderOutside(excluded).isPresent(), boundMs, "a leader outside " + excluded);
        return leaderOutside(excluded).orElseThrow();
    }

    /** Waits until the committed prefix has grown by {@code records} beyond what it is now. */
    public void awaitCommitted(long records, long boundMs) {
        long target = committedOffset() + records;
        loop.runUntil(() -> committedOffset() >= target, boundMs, "committed up to offset " + target);
    }

    /** Kills a node; it stays down until {@link #restart}. */
    public void crash(int nodeId) {
        world.faults().holdDown(nodeId);
        node(nodeId).crash();
    }

    public void restart(int nodeId) {
        world.faults().release(nodeId);
    }

    /** Replaces a node's disk by an empty one; a wiped voter rejoins once that is safe. */
    public void wipe(int nodeId) {
        world.faults().wipe(node(nodeId));
    }

    /** Leaves an invariant out of this run ({@link io.metaquorum.sim.invariant.InvariantChecker#ignore}). */
    public void ignoreCheck(String name) {
        world.checker().ignore(name);
    }

    /** Cuts every link between the two groups, both ways. */
    public void partition(Set<Integer> side, Set<Integer> otherSide) {
        for (int a : side) {
            for (int b : otherSide) {
                links().cutBoth(a, b);
            }
        }
    }

    /** Freezes a node's process (SIGSTOP): nothing in or out, no reset, its timers stopped. */
    public void pause(int nodeId) {
        node(nodeId).pause();
    }

    /** SIGCONT: the paused process runs again, its clock showing the time that passed. */
    public void resume(int nodeId) {
        node(nodeId).resume();
    }

    /** Cuts a node off silently, both ways: calls to and from it time out. */
    public void blackHole(int nodeId) {
        links().blackHole(nodeId);
    }

    /** Ends a node's black hole. */
    public void restore(int nodeId) {
        links().restore(nodeId);
    }

    /**
     * The node's TLS certificate goes bad: its open calls reset and every connection from or to
     * it fails its handshake (UNREACHABLE, at once), while its process runs on.
     */
    public void breakCertificate(int nodeId) {
        world.network().breakCertificate(nodeId);
    }

    /** The node's certificate is fixed (rotation): its connections succeed again. */
    public void fixCertificate(int nodeId) {
        world.network().fixCertificate(nodeId);
    }

    /** Sees every message and transport failure the network delivers from now on (a scenario has no other observer). */
    public void observeDeliveries(DeliveryObserver observer) {
        world.network().setDeliveryObserver(observer);
    }

    /**
     * The end-of-run checks, without healing: the raft checker's, and in system mode the system
     * layer's (every acknowledged write committed, the admin history linearizable).
     */
    public void finishChecks() {
        world.checker().finish();
        if (world.system() != null) {
            world.system().finish();
        }
    }

    /** A burst of connection resets: every open call between {@code a} and {@code b} fails with UNREACHABLE. */
    public void resetConnections(int a, int b) {
        world.network().resetConnections(a, b);
    }

    /** The bound for a new leader after a leader goes silent: fetch timeout + 2 x election timeout. */
    public long silentLeaderBoundMs() {
        return SilentLeaderStage.boundMs(world.timeouts());
    }

    /**
     * Waits for a node other than {@code silent}, not paused, to lead an epoch above
     * {@code silentEpoch}; fails as {@value SilentLeaderStage#CHECK} once {@code boundMs} have
     * passed since {@code sinceMs}.
     */
    public SimNode awaitSilentLeaderReplaced(int silent, int silentEpoch, long sinceMs, long boundMs) {
        return new SilentLeaderStage(world, loop).awaitReplacement(node(silent), silentEpoch, sinceMs, boundMs,
                "scenario seed " + options.seed());
    }

    /**
     * Waits for the silent node, back, to leave epoch {@code silentEpoch} (step down); fails as
     * {@value SilentLeaderStage#STEP_DOWN_CHECK} after {@value SilentLeaderStage#STEP_DOWN_BOUND_MS} ms.
     */
    public void awaitSteppedDown(int silent, int silentEpoch, long sinceMs) {
        new SilentLeaderStage(world, loop).awaitStepDown(node(silent), silentEpoch, sinceMs,
                "silence in scenario seed " + options.seed());
    }

    /**
     * Steps for {@code durationMs} and counts the role changes of {@code nodeId} seen after each
     * event (a change of role name, epoch or known leader counts once).
     */
    public int runForCountingRoleChanges(long durationMs, int nodeId) {
        SimNode watched = node(nodeId);
        long until = nowMs() + durationMs;
        RaftStatus last = watched.isRunning() ? watched.status() : null;
        int changes = 0;
        while (world.scheduler().nextEventTimeMs() <= until && loop.step()) {
            RaftStatus now = watched.isRunning() ? watched.status() : null;
            if (now != null && last != null && (now.role() != last.role() || now.epoch() != last.epoch()
                    || now.leaderId() != last.leaderId())) {
                changes++;
            }
            last = now;
        }
        return changes;
    }

    /**
     * Heals the network (black holes and bad certificates too), resumes paused nodes, restarts
     * every node, and requires convergence: one leader, an append accepted from now on
     * acknowledged, every node caught up.
     */
    public void healAndConverge(long boundMs) {
        links().healAll();
        for (SimNode node : world.cluster().nodes()) {
            node.resume();
            world.faults().release(node.nodeId());
        }
        long since = nowMs();
        world.workload().probeSince(since);
        Set<Integer> all = new TreeSet<>();
        world.cluster().nodes().forEach(node -> all.add(node.nodeId()));
        loop.awaitConvergence(all, since, boundMs, "in scenario seed " + options.seed());
        world.checker().finish();
    }

    private Optional<SimNode> leaderOutside(Set<Integer> excluded) {
        return world.cluster().leader().filter(leader -> !excluded.contains(leader.nodeId()));
    }
}

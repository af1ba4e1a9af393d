package io.metaquorum.sim;

import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.invariant.CheckFailure;
import io.metaquorum.sim.network.LinkTable;
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
        world.workload().start();
        loop.observeAll();
    }

    /** Starts a cluster of {@code voters} and {@code observers} on a reliable network, with a steady load. */
    public static Scenario start(long seed, int voters, int observers) {
        return new Scenario(new SimulationOptions(seed, 1, EnumSet.noneOf(FaultKind.class), false, voters, observers,
                BrokenVariant.NONE, false));
    }

    public SimCluster cluster() {
        return world.cluster();
    }

    public LinkTable links() {
        return world.network().links();
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

    /** Cuts every link between the two groups, both ways. */
    public void partition(Set<Integer> side, Set<Integer> otherSide) {
        for (int a : side) {
            for (int b : otherSide) {
                links().cutBoth(a, b);
            }
        }
    }

    /**
     * Heals the network, restarts every node, and requires convergence: one leader, an
     * append accepted from now on acknowledged, every node caught up.
     */
    public void healAndConverge(long boundMs) {
        links().healAll();
        for (SimNode node : world.cluster().nodes()) {
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

package io.metaquorum.sim.system.world;

import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.system.fs.SimFileSystem;
import io.metaquorum.sim.workload.FaultInjector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;

/**
 * Faults of the brokers' partition-directory disks, beside the raft disks' own: with
 * {@code write-error} in the seed's faults, a broker's next few directory operations fail
 * (a full or failing disk: the reconciler must leave nothing half-done and retry); with
 * {@code crash}, a kill -9 lands at a random one of a broker's next directory operations
 * (between a create and its sync, a rename and its directory sync), so what a crash leaves
 * half-done is what the broker finds when it restarts. Armed on a random running broker at
 * exponential intervals until {@link #stop}, which also disarms what has not fired.
 */
final class BrokerDiskFaults {
    static final long MEAN_INTERVAL_MS = 8_000;
    private static final int FAILED_OPERATIONS_MAX = 4;
    private static final int CRASH_POINT_MAX = 30;

    private final EventScheduler scheduler;
    private final Random random;
    private final SimCluster cluster;
    private final IntFunction<SimFileSystem> disks;
    private boolean stopped;
    private long armed;

    BrokerDiskFaults(EventScheduler scheduler, Random random, SimCluster cluster, IntFunction<SimFileSystem> disks) {
        this.scheduler = scheduler;
        this.random = random;
        this.cluster = cluster;
        this.disks = disks;
    }

    void start(boolean writeErrors, boolean crashPoints) {
        if (writeErrors) {
            every(fs -> fs.failNextOperations(1 + random.nextInt(FAILED_OPERATIONS_MAX)));
        }
        if (crashPoints) {
            every(fs -> fs.crashAtOperation(1 + random.nextInt(CRASH_POINT_MAX)));
        }
    }

    /** The end of the safety phase: nothing more is armed, and what is armed is cleared. */
    void stop() {
        stopped = true;
        for (SimNode node : cluster.observers()) {
            SimFileSystem fs = disks.apply(node.nodeId());
            if (fs != null) {
                fs.clearFaults();
            }
        }
    }

    /** Faults armed so far (each a run of failing operations or a crash point). */
    long armed() {
        return armed;
    }

    private interface Arm {
        void on(SimFileSystem fs);
    }

    private void every(Arm arm) {
        scheduler.scheduleAfter(FaultInjector.exponential(random, MEAN_INTERVAL_MS), EventKind.FAULT, -1, () -> {
            if (stopped) {
                return;
            }
            List<SimFileSystem> running = new ArrayList<>();
            for (SimNode node : cluster.observers()) {
                SimFileSystem fs = disks.apply(node.nodeId());
                if (node.isRunning() && fs != null && !fs.isCrashed()) {
                    running.add(fs);
                }
            }
            if (!running.isEmpty()) {
                arm.on(running.get(random.nextInt(running.size())));
                armed++;
            }
            every(arm);
        });
    }
}

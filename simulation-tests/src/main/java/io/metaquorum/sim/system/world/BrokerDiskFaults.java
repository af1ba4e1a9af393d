package io.metaquorum.sim.system.world;

import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.system.fs.SimFileSystem;
import io.metaquorum.sim.workload.FaultInjector;
import java.nio.file.Path;
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
 * half-done is what the broker finds when it restarts. With {@code disk-full}, one of a random
 * broker's log dirs fills and is freed some seconds later: the broker takes it offline until
 * it restarts. Armed on a random running broker at exponential intervals until {@link #stop},
 * which also disarms what has not fired and frees every disk.
 */
final class BrokerDiskFaults {
    static final long MEAN_INTERVAL_MS = 8_000;
    private static final int FAILED_OPERATIONS_MAX = 4;
    private static final int CRASH_POINT_MAX = 30;

    private final EventScheduler scheduler;
    private final Random random;
    private final SimCluster cluster;
    private final IntFunction<SimFileSystem> disks;
    /** How long a filled log dir stays full at most. */
    static final long FULL_MAX_MS = 20_000;

    private boolean stopped;
    private long armed;
    /** Null unless the seed drew full disks. */
    private Random fullRandom;
    private List<Path> logDirs = List.of();

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
        if (fullRandom != null) {
            fillDisks();
        }
    }

    /**
     * From {@link #start} on, fills a random log dir of a random running broker at exponential
     * intervals and frees it after up to {@link #FULL_MAX_MS}, drawing from {@code fullRandom}
     * alone (so the other faults' draws are those of a seed without full disks).
     */
    void fillDisksWith(Random fullRandom, List<Path> logDirs) {
        this.fullRandom = fullRandom;
        this.logDirs = List.copyOf(logDirs);
    }

    private void fillDisks() {
        scheduler.scheduleAfter(FaultInjector.exponential(fullRandom, MEAN_INTERVAL_MS), EventKind.FAULT, -1, () -> {
            if (stopped) {
                return;
            }
            List<SimFileSystem> running = runningDisks();
            if (!running.isEmpty()) {
                SimFileSystem fs = running.get(fullRandom.nextInt(running.size()));
                Path dir = logDirs.get(fullRandom.nextInt(logDirs.size()));
                fs.setFull(dir, true);
                armed++;
                scheduler.scheduleAfter(1 + fullRandom.nextInt((int) FULL_MAX_MS), EventKind.FAULT, -1,
                        () -> fs.setFull(dir, false));
            }
            fillDisks();
        });
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

    /** Faults armed so far (each a run of failing operations, a crash point or a log dir filled). */
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
            List<SimFileSystem> running = runningDisks();
            if (!running.isEmpty()) {
                arm.on(running.get(random.nextInt(running.size())));
                armed++;
            }
            every(arm);
        });
    }

    /** The file systems of the running brokers, in node order. */
    private List<SimFileSystem> runningDisks() {
        List<SimFileSystem> running = new ArrayList<>();
        for (SimNode node : cluster.observers()) {
            SimFileSystem fs = disks.apply(node.nodeId());
            if (node.isRunning() && fs != null && !fs.isCrashed()) {
                running.add(fs);
            }
        }
        return running;
    }
}

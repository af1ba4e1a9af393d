package io.metaquorum.sim.workload;

import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.sim.network.NetworkProfile;
import io.metaquorum.sim.storage.DiskProfile;
import java.util.EnumSet;
import java.util.Random;

/**
 * The fault mix of one seed. With {@code swarm}, each allowed fault is switched on with
 * probability 1/2 (swarm testing: a seed that leaves some faults out explores the others
 * more deeply); otherwise exactly the allowed faults are on. Every enabled fault then
 * draws its own rate and severity.
 */
public record FaultProfile(EnumSet<FaultKind> enabled, NetworkProfile network, DiskProfile disk,
                           FaultSchedule schedule) {
    public boolean has(FaultKind kind) {
        return enabled.contains(kind);
    }

    public static FaultProfile draw(EnumSet<FaultKind> allowed, boolean swarm, Random random, RaftTimeouts timeouts) {
        EnumSet<FaultKind> enabled = EnumSet.noneOf(FaultKind.class);
        for (FaultKind kind : FaultKind.values()) {
            if (!FaultKind.DRAWN_APART.contains(kind) && allowed.contains(kind) && (!swarm || random.nextBoolean())) {
                enabled.add(kind);
            }
        }
        int callTimeoutMs = timeouts.requestTimeoutMs() + timeouts.fetchWaitMsMax();
        NetworkProfile network = drawNetwork(enabled, random, callTimeoutMs);
        DiskProfile disk = drawDisk(enabled, random);
        return new FaultProfile(enabled, network, disk, drawSchedule(enabled, random));
    }

    /**
     * Adds the silent faults ({@link FaultKind#SILENT}: pauses and black holes) to a profile
     * drawn by {@link #draw}, from a stream of their own: they came later, and drawing them
     * apart leaves every other draw of a seed as it was.
     */
    public FaultProfile withSilentFaults(EnumSet<FaultKind> allowed, boolean swarm, Random random) {
        EnumSet<FaultKind> on = EnumSet.copyOf(enabled);
        for (FaultKind kind : FaultKind.SILENT) {
            if (allowed.contains(kind) && (!swarm || random.nextBoolean())) {
                on.add(kind);
            }
        }
        boolean pause = on.contains(FaultKind.PAUSE);
        boolean blackHole = on.contains(FaultKind.BLACK_HOLE);
        FaultSchedule s = schedule;
        return new FaultProfile(on, network, disk, new FaultSchedule(s.partitionHealthyMeanMs(), s.partitionMeanMs(),
                s.crashMeanIntervalMs(), s.downtimeMaxMs(), s.leaderTargetProbability(), s.shutdownMeanIntervalMs(),
                s.resignMeanIntervalMs(), s.wipeMeanIntervalMs(), s.clockJumpMeanIntervalMs(), s.clockJumpMaxMs(), s.driftPpmMax(),
                s.skewMaxMs(),
                pause ? between(random, 2_000, 30_000) : FaultSchedule.NEVER,
                pause ? between(random, 200, 12_000) : 0,
                blackHole ? between(random, 2_000, 30_000) : FaultSchedule.NEVER,
                blackHole ? between(random, 500, 15_000) : 0, s.badCertificateMeanIntervalMs(),
                s.badCertificateMaxMs()));
    }

    /**
     * Adds {@link FaultKind#BAD_CERTIFICATE} to a profile, from a stream of its own drawn after
     * every other (the system layer's included), so that a seed that leaves it out runs exactly
     * as it did before the fault existed. Its own rate: a certificate goes bad every 2-30 s on
     * average and stays bad for up to 0.5-15 s.
     */
    public FaultProfile withBadCertificates(EnumSet<FaultKind> allowed, boolean swarm, Random random) {
        if (!allowed.contains(FaultKind.BAD_CERTIFICATE) || swarm && !random.nextBoolean()) {
            return this;
        }
        EnumSet<FaultKind> on = EnumSet.copyOf(enabled);
        on.add(FaultKind.BAD_CERTIFICATE);
        return new FaultProfile(on, network, disk,
                schedule.withBadCertificates(between(random, 2_000, 30_000), between(random, 500, 15_000)));
    }

    /**
     * Adds {@link FaultKind#DISK_FULL} to a profile, from a stream of its own drawn after every
     * other, so that a seed that leaves it out runs exactly as it did before the fault existed.
     */
    public FaultProfile withDiskFull(EnumSet<FaultKind> allowed, boolean swarm, Random random) {
        if (!allowed.contains(FaultKind.DISK_FULL) || swarm && !random.nextBoolean()) {
            return this;
        }
        EnumSet<FaultKind> on = EnumSet.copyOf(enabled);
        on.add(FaultKind.DISK_FULL);
        return new FaultProfile(on, network, disk, schedule);
    }

    /**
     * Adds {@link FaultKind#MEMBERSHIP} to a profile, from a stream of its own drawn after every
     * other, so that a seed that leaves it out runs as it did before the fault existed (the
     * operator's own knobs come from that stream too).
     */
    public FaultProfile withMembership(EnumSet<FaultKind> allowed, boolean swarm, Random random) {
        if (!allowed.contains(FaultKind.MEMBERSHIP) || swarm && !random.nextBoolean()) {
            return this;
        }
        EnumSet<FaultKind> on = EnumSet.copyOf(enabled);
        on.add(FaultKind.MEMBERSHIP);
        return new FaultProfile(on, network, disk, schedule);
    }

    private static NetworkProfile drawNetwork(EnumSet<FaultKind> on, Random random, int callTimeoutMs) {
        boolean delay = on.contains(FaultKind.DELAY);
        return new NetworkProfile(
                between(random, 0, 3),
                delay ? between(random, 1, 40) : between(random, 0, 3),
                delay ? uniform(random, 0.001, 0.05) : 0,
                delay ? between(random, 50, 4000) : 0,
                on.contains(FaultKind.LOSS) ? uniform(random, 0.001, 0.15) : 0,
                on.contains(FaultKind.DUPLICATE) ? uniform(random, 0.001, 0.1) : 0,
                on.contains(FaultKind.REORDER),
                callTimeoutMs);
    }

    private static DiskProfile drawDisk(EnumSet<FaultKind> on, Random random) {
        int syncMin = between(random, 0, 2);
        boolean slow = on.contains(FaultKind.SLOW_DISK);
        boolean torn = on.contains(FaultKind.TORN_WRITE);
        return new DiskProfile(syncMin, syncMin + between(random, 0, slow ? 20 : 3),
                slow ? uniform(random, 0.005, 0.2) : 0, slow ? between(random, 20, 1500) : 0,
                on.contains(FaultKind.WRITE_ERROR) ? uniform(random, 0.00001, 0.001) : 0,
                torn, torn ? uniform(random, 0.3, 1.0) : 0);
    }

    private static FaultSchedule drawSchedule(EnumSet<FaultKind> on, Random random) {
        boolean partitions = on.contains(FaultKind.PARTITION) || on.contains(FaultKind.ONE_WAY);
        return new FaultSchedule(
                partitions ? between(random, 1_000, 20_000) : FaultSchedule.NEVER,
                partitions ? between(random, 300, 12_000) : FaultSchedule.NEVER,
                on.contains(FaultKind.CRASH) ? between(random, 500, 20_000) : FaultSchedule.NEVER,
                between(random, 50, 8_000),
                uniform(random, 0, 0.8),
                on.contains(FaultKind.SHUTDOWN) ? between(random, 2_000, 30_000) : FaultSchedule.NEVER,
                on.contains(FaultKind.RESIGN) ? between(random, 1_000, 15_000) : FaultSchedule.NEVER,
                on.contains(FaultKind.WIPE) ? between(random, 5_000, 60_000) : FaultSchedule.NEVER,
                on.contains(FaultKind.CLOCK) ? between(random, 2_000, 30_000) : FaultSchedule.NEVER,
                between(random, 10, 3_000),
                on.contains(FaultKind.CLOCK) ? between(random, 0, 50_000) : 0,
                on.contains(FaultKind.CLOCK) ? between(random, 0, 120_000) : 0,
                FaultSchedule.NEVER, 0, FaultSchedule.NEVER, 0, FaultSchedule.NEVER, 0);
    }

    /** One line for humans: the faults on and their main knobs. */
    public String describe() {
        return "faults " + FaultKind.names(enabled) + String.format(
                " | net delay %d+exp(%d)ms spikes %.3f<=%dms loss %.3f dup %.3f reorder %s"
                        + " | disk sync %d-%dms stalls %.3f<=%dms io-errors %.5f untidy %s",
                network.minDelayMs(), network.meanExtraDelayMs(), network.spikeProbability(), network.spikeMaxMs(),
                network.lossProbability(), network.duplicateProbability(), network.reorder(),
                disk.syncMinMs(), disk.syncMaxMs(), disk.stallProbability(), disk.stallMaxMs(),
                disk.writeErrorProbability(), disk.untidyCrashes());
    }

    static int between(Random random, int low, int high) {
        return low + random.nextInt(high - low + 1);
    }

    static double uniform(Random random, double low, double high) {
        return low + (high - low) * random.nextDouble();
    }
}

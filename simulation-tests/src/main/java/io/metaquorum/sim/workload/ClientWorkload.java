package io.metaquorum.sim.workload;

import io.metaquorum.sim.machine.StateMachineModel;
import io.metaquorum.sim.machine.AppendTracker;
import com.google.protobuf.ByteString;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Clients appending records at the seed's rate, with bursts: now and then the rate jumps
 * tenfold for 0.2 to 2 seconds (a controller failover replaying pending writes, a batch of
 * topic creations). A client sends to the leader it knows (the running leader of the
 * highest epoch) or, now and then, to a random running node, which refuses unless it
 * leads. Every record carries a fresh append id.
 */
public final class ClientWorkload {
    /** Appends not acknowledged this long after acceptance are given up on. */
    private static final long PENDING_EXPIRY_MS = 60_000;
    private static final double BURST_START_PROBABILITY = 0.005;
    private static final int BURST_RATE_FACTOR = 10;
    /** While probing, at most one single-record append per this many milliseconds. */
    private static final int PROBE_INTERVAL_MS_MIN = 200;

    private final EventScheduler scheduler;
    private final SimCluster cluster;
    private final AppendTracker appends;
    private final StateMachineModel model;
    private final Random random;
    private WorkloadProfile profile;
    private boolean running;
    private long generation;
    private long burstUntilMs;
    /** Once an append accepted at or after this time is acknowledged, the clients stop. */
    private long stopOnceAckedSinceMs = Long.MAX_VALUE;

    public ClientWorkload(EventScheduler scheduler, SimCluster cluster, AppendTracker appends, StateMachineModel model,
                          Random random, WorkloadProfile profile) {
        this.scheduler = scheduler;
        this.cluster = cluster;
        this.appends = appends;
        this.model = model;
        this.random = random;
        this.profile = profile;
    }

    public void start() {
        running = true;
        long token = ++generation;
        scheduleNext(token);
    }

    public void stop() {
        running = false;
        generation++;
    }

    /**
     * Switches to probing (the liveness phase's proof of progress): single-record appends
     * at a gentle rate, so that the load cannot outrun what the healed cluster replicates,
     * until one accepted from {@code sinceMs} on is acknowledged; then stops so that the
     * nodes can catch up.
     */
    public void probeSince(long sinceMs) {
        stopOnceAckedSinceMs = sinceMs;
        burstUntilMs = 0;
        profile = new WorkloadProfile(Math.max(profile.meanAppendIntervalMs(), PROBE_INTERVAL_MS_MIN), 1,
                profile.staleTargetProbability(), profile.snapshotIntervalRecords());
        if (!running) {
            start();
        }
    }

    public void setProfile(WorkloadProfile profile) {
        this.profile = profile;
    }

    private void scheduleNext(long token) {
        long now = scheduler.nowMs();
        if (stopOnceAckedSinceMs == Long.MAX_VALUE && now >= burstUntilMs
                && random.nextDouble() < BURST_START_PROBABILITY) {
            burstUntilMs = now + 200 + random.nextInt(1801);
        }
        double mean = now < burstUntilMs ? (double) profile.meanAppendIntervalMs() / BURST_RATE_FACTOR
                : profile.meanAppendIntervalMs();
        double interval = -mean * Math.log(1 - random.nextDouble());
        scheduler.scheduleAfter((long) interval, EventKind.CLIENT, -1, () -> {
            if (!running || token != generation) {
                return;
            }
            if (appends.latestAckedAcceptMs() >= stopOnceAckedSinceMs) {
                running = false;
                return;
            }
            appendOnce();
            scheduleNext(token);
        });
    }

    private void appendOnce() {
        appends.expireBefore(scheduler.nowMs() - PENDING_EXPIRY_MS);
        Optional<SimNode> target = pickTarget();
        if (target.isEmpty()) {
            return;
        }
        int count = 1 + random.nextInt(profile.recordsPerAppendMax());
        List<ByteString> records = new ArrayList<>(count);
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = appends.nextAppendId();
            records.add(model.clientRecord(ids[i], random));
        }
        SimNode node = target.get();
        node.clientAppend(node.status().epoch(), records, ids);
    }

    private Optional<SimNode> pickTarget() {
        if (random.nextDouble() < profile.staleTargetProbability()) {
            List<SimNode> running = cluster.running();
            return running.isEmpty() ? Optional.empty() : Optional.of(running.get(random.nextInt(running.size())));
        }
        return cluster.leader();
    }
}

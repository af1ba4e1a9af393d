package io.metaquorum.sim.system.workload;

import com.google.protobuf.ByteString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.controller.AppendSink;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerRequest;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.CreateTopicPolicy;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.sim.system.invariant.AcknowledgedWritesCheck;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The real {@link QuorumController} on one node, with a stand-in for raft that accepts every
 * append and commits it a few ms later, in order; a failover resigns the controller and makes
 * it lead the next epoch after a gap, with what it had appended and not committed either
 * committed later anyway (a new leader that holds the records) or dropped.
 */
final class OneControllerCluster implements AppendSink {
    static final int NODE = 1;
    static final long COMMIT_DELAY_MS = 3;

    private record Appended(int epoch, long lastOffset, List<MetadataRecord> records) {
    }

    final QuorumController controller;
    private final ArrayDeque<Appended> toAccept = new ArrayDeque<>();
    private final ArrayDeque<Appended> uncommitted = new ArrayDeque<>();
    private final TreeMap<Long, Integer> commitAtMs = new TreeMap<>();
    private MetadataImage committed = MetadataImage.EMPTY;
    private static final int RECENT_IMAGES_MAX = 256;
    /** The committed image after each of the last ms, oldest first. */
    private final List<MetadataImage> recentImages = new ArrayList<>();
    private int epoch;
    private long leadAgainAtMs = -1;
    /** Sees every committed metadata record, in log order. */
    final AcknowledgedWritesCheck acknowledged = new AcknowledgedWritesCheck();
    long nowMs;
    /** Appends made so far, and how many of the first ones have a decided fate (committed or dropped). */
    long appendsMade;
    long appendsDecided;
    int failovers;
    int lateCommits;

    OneControllerCluster(long seed) {
        ControllerConfig config = new ControllerConfig(new ControllerManagers.Settings(ReplicationDefaults.KAFKA,
                Long.MAX_VALUE / 4, new TreeMap<>()), CreateTopicPolicy.NONE, 500, 8192);
        controller = new QuorumController("[node 1] ", config, new SplittableRandom(seed), this);
    }

    @Override
    public void append(int appendEpoch, long expectedLastOffset, List<MetadataRecord> records) {
        appendsMade++;
        Appended appended = new Appended(appendEpoch, expectedLastOffset, List.copyOf(records));
        toAccept.add(appended);
        uncommitted.add(appended);
        commitAtMs.merge(nowMs + COMMIT_DELAY_MS, 1, Integer::sum);
    }

    /** This stand-in for raft never changes its voters, so it hands the controller no control records. */
    @Override
    public void appendControl(int appendEpoch, long expectedLastOffset, List<ByteString> records) {
        throw new AssertionError("no voter change happens in a one-controller cluster");
    }

    @Override
    public void resign(int resignEpoch) {
        failover(resignEpoch, false, 10);
    }

    MetadataImage committed() {
        return committed;
    }

    int controllerId() {
        return controller.isActive() ? NODE : -1;
    }

    /** Leads epoch 1 and registers and unfences {@code brokers}. */
    void start(List<Integer> brokers) {
        becomeLeader();
        for (int broker : brokers) {
            long[] brokerEpoch = {-1};
            controller.registerBroker(new RegisterBrokerRequest(broker, Uuid.newBuilder().setMostSignificantBits(broker)
                    .setLeastSignificantBits(7).build(), List.of(), ""), nowMs, r -> brokerEpoch[0] = r.brokerEpoch());
            advanceTo(nowMs + 10);
            ErrorCode[] code = {null};
            controller.heartbeat(new HeartbeatRequest(broker, brokerEpoch[0], committed.lastCommittedOffset(), false,
                    false), nowMs, r -> code[0] = r.error().code());
            advanceTo(nowMs + 10);
            assertEquals(ErrorCode.NONE, code[0]);
        }
        assertEquals(brokers.size(), committed.cluster().unfencedSortedById().size());
    }

    /** Runs raft's and the controller's work up to {@code targetMs}, one ms at a time. */
    void advanceTo(long targetMs) {
        while (nowMs < targetMs) {
            nowMs++;
            tick();
        }
    }

    /** The committed image as it was {@code ms} ago (as far back as it is kept). */
    MetadataImage imageMsAgo(int ms) {
        int index = Math.max(0, recentImages.size() - 1 - ms);
        return recentImages.get(index);
    }

    void tick() {
        recentImages.add(committed);
        if (recentImages.size() > RECENT_IMAGES_MAX) {
            recentImages.remove(0);
        }
        while (!toAccept.isEmpty()) {
            Appended a = toAccept.poll();
            controller.handleAppendAccepted(a.epoch(), a.lastOffset());
        }
        if (leadAgainAtMs >= 0 && nowMs >= leadAgainAtMs) {
            leadAgainAtMs = -1;
            commitUpTo(uncommitted.size());
            becomeLeader();
        }
        int due = 0;
        while (!commitAtMs.isEmpty() && commitAtMs.firstKey() <= nowMs) {
            due += commitAtMs.pollFirstEntry().getValue();
        }
        if (controller.isActive()) {
            commitUpTo(Math.min(due, uncommitted.size()));
        }
        controller.poll(nowMs);
    }

    /**
     * Ends the current leadership: the controller resigns; what it appended and raft did not
     * commit is committed under the next leader ({@code keepUncommitted}) or lost.
     */
    void failover(int resignEpoch, boolean keepUncommitted, long gapMs) {
        if (resignEpoch != epoch || leadAgainAtMs >= 0) {
            return;
        }
        failovers++;
        controller.handleResign(epoch);
        if (keepUncommitted) {
            lateCommits += uncommitted.size();
        } else {
            appendsDecided += uncommitted.size();
            uncommitted.clear();
        }
        commitAtMs.clear();
        toAccept.clear();
        leadAgainAtMs = nowMs + gapMs;
    }

    int epoch() {
        return epoch;
    }

    boolean leading() {
        return leadAgainAtMs < 0;
    }

    private void commitUpTo(int count) {
        if (count == 0) {
            return;
        }
        MetadataDelta delta = new MetadataDelta(committed);
        for (int i = 0; i < count; i++) {
            Appended a = uncommitted.poll();
            long offset = a.lastOffset() - a.records().size() + 1;
            for (MetadataRecord record : a.records()) {
                acknowledged.observe(record, offset);
                delta.replay(record, offset++, a.epoch());
            }
        }
        appendsDecided += count;
        committed = delta.apply();
        controller.handleCommitted(committed);
    }

    private void becomeLeader() {
        epoch++;
        long offset = committed.committedEndOffset();
        MetadataDelta delta = new MetadataDelta(committed);
        delta.advanceTo(offset, epoch);
        committed = delta.apply();
        controller.handleCommitted(committed);
        controller.handleBecomeLeader(epoch, offset, nowMs);
    }

    /** A random source for the test's own choices, apart from the controller's. */
    static Random random(long seed) {
        return new Random(seed * 31 + 17);
    }

    static List<Integer> ids(int count) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            ids.add(100 + i);
        }
        return ids;
    }
}

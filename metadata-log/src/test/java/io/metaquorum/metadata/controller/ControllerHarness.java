package io.metaquorum.metadata.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A {@link QuorumController} driven by hand, with this harness in raft's place: it keeps the
 * appends the controller makes, accepts and commits them when the test says so (replaying
 * committed records into the committed image as the loader does), and records resignations.
 */
final class ControllerHarness implements AppendSink {
    record Appended(int epoch, long lastOffset, List<MetadataRecord> records) {
        long baseOffset() {
            return lastOffset - records.size() + 1;
        }
    }

    static final long SESSION_TIMEOUT_MS = 9_000;
    static final long IDLE_INTERVAL_MS = 500;

    final QuorumController controller;
    final List<Appended> appended = new ArrayList<>();
    final List<Integer> resignations = new ArrayList<>();
    private int accepted;
    private int committedAppends;
    MetadataImage committed = MetadataImage.EMPTY;
    long nowMs = 1_000;

    ControllerHarness() {
        this(8192);
    }

    ControllerHarness(int appendRecordsMax) {
        ControllerConfig config = new ControllerConfig(new ControllerManagers.Settings(ReplicationDefaults.KAFKA,
                SESSION_TIMEOUT_MS, Map.of()), CreateTopicPolicy.NONE, IDLE_INTERVAL_MS, appendRecordsMax);
        controller = new QuorumController("[test] ", config, new SplittableRandom(7), this);
    }

    @Override
    public void append(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
        appended.add(new Appended(epoch, expectedLastOffset, records));
    }

    /** Raft's control records the controller appended: epoch, last offset, how many. */
    record ControlAppended(int epoch, long lastOffset, int count) {
    }

    final List<ControlAppended> controlAppended = new ArrayList<>();

    @Override
    public void appendControl(int epoch, long expectedLastOffset, List<ByteString> records) {
        controlAppended.add(new ControlAppended(epoch, expectedLastOffset, records.size()));
    }

    @Override
    public void resign(int epoch) {
        resignations.add(epoch);
    }

    /** Commits raft's leader-change record of {@code epoch} and tells the controller it leads. */
    void becomeLeader(int epoch) {
        long offset = committed.committedEndOffset();
        MetadataDelta delta = new MetadataDelta(committed);
        delta.advanceTo(offset, epoch);
        committed = delta.apply();
        controller.handleCommitted(committed);
        controller.handleBecomeLeader(epoch, offset, nowMs);
    }

    /** Raft queues every append made so far. */
    void acceptAll() {
        while (accepted < appended.size()) {
            Appended a = appended.get(accepted++);
            controller.handleAppendAccepted(a.epoch(), a.lastOffset());
        }
    }

    /** Every append so far is accepted and committed. */
    void commitAll() {
        acceptAll();
        commitFirst(appended.size());
    }

    /** The first {@code count} appends (of all so far) are committed; they must have been accepted. */
    void commitFirst(int count) {
        MetadataDelta delta = new MetadataDelta(committed);
        while (committedAppends < count) {
            Appended a = appended.get(committedAppends++);
            long offset = a.baseOffset();
            for (MetadataRecord record : a.records()) {
                delta.replay(record, offset++, a.epoch());
            }
        }
        committed = delta.apply();
        controller.handleCommitted(committed);
    }

    /** How many of the appends so far are committed. */
    int committedAppends() {
        return committedAppends;
    }

    /** Drops what was appended and not committed, as a new leader would. */
    void loseUncommitted() {
        while (appended.size() > committedAppends) {
            appended.remove(appended.size() - 1);
        }
        accepted = Math.min(accepted, committedAppends);
    }

    long advance(long ms) {
        nowMs += ms;
        return controller.poll(nowMs);
    }
}

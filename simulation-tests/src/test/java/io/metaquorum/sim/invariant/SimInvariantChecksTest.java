package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.sim.machine.AppendTracker;
import io.metaquorum.sim.workload.KeyValueModel;
import io.metaquorum.sim.machine.RecordStateMachine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every checker, fed hand-built states: each must pass the legal ones and fail the broken ones. */
class SimInvariantChecksTest {
    private static final KeyValueModel MODEL = new KeyValueModel(8);

    private static RaftStatus status(int node, RoleName role, int epoch, long hw) {
        return new RaftStatus(node, role, epoch, role == RoleName.LEADER ? node : -1, -1, hw, 0, Math.max(hw, 0),
                Math.max(hw, 0), Math.max(hw, 0));
    }

    private static void assertFails(String invariant, Executable check) {
        CheckFailure failure = assertThrows(CheckFailure.class, check);
        assertEquals(invariant, failure.invariant(), failure.getMessage());
    }

    private static RecordBatch clientBatch(long base, int epoch, long... appendIds) {
        List<ByteString> records = new ArrayList<>();
        Random random = new Random(base);
        for (long id : appendIds) {
            records.add(MODEL.clientRecord(id, random));
        }
        return RecordBatches.build(base, epoch, 0, false, records);
    }

    @Test
    void singleLeaderPerEpoch() {
        SingleLeaderCheck check = new SingleLeaderCheck();
        check.observe(status(1, RoleName.LEADER, 3, 0));
        check.observe(status(1, RoleName.LEADER, 3, 5));
        check.observe(status(2, RoleName.LEADER, 4, 5));
        check.observe(status(3, RoleName.FOLLOWER, 3, 5));
        assertFails("single-leader-per-epoch", () -> check.observe(status(2, RoleName.LEADER, 3, 5)));
    }

    /** A leadership too short for any status observation still appends its LeaderChange record. */
    @Test
    void aLeaderChangeRecordWitnessesALeadershipNoStatusShowed() {
        SingleLeaderCheck check = new SingleLeaderCheck();
        check.observe(status(1, RoleName.LEADER, 3, 0));
        check.observeLeaderRecord(3, 1, 2);
        check.observeLeaderRecord(4, 2, 2);
        check.observe(status(2, RoleName.LEADER, 4, 0));
        assertEquals(2, check.leaderEpochCount());
        assertFails("single-leader-per-epoch", () -> check.observeLeaderRecord(3, 3, 3));
        SingleLeaderCheck unseen = new SingleLeaderCheck();
        unseen.observeLeaderRecord(5, 3, 3);
        assertFails("single-leader-per-epoch", () -> unseen.observe(status(1, RoleName.LEADER, 5, 0)));
    }

    /** A follower's status with its log reaching {@code logEnd}. */
    private static RaftStatus follower(int node, int epoch, long hw, long logEnd) {
        return new RaftStatus(node, RoleName.FOLLOWER, epoch, -1, -1, hw, 0, logEnd, logEnd, Math.max(hw, 0));
    }

    @Test
    void epochsNeverGoBackUnlessTheDiskWasWiped() {
        ProgressCheck check = new ProgressCheck(3);
        check.observe(status(1, RoleName.FOLLOWER, 5, -1), 1, 0);
        check.observe(status(1, RoleName.FOLLOWER, 5, -1), 2, 0);
        assertFails("monotonic-epoch", () -> check.observe(status(1, RoleName.FOLLOWER, 4, -1), 2, 0));
        assertDoesNotThrow(() -> check.observe(status(1, RoleName.UNATTACHED, 0, 0), 3, 1));
    }

    @Test
    void highWatermarksNeverGoBackWithinAnIncarnation() {
        ProgressCheck check = new ProgressCheck(3);
        check.observe(status(2, RoleName.FOLLOWER, 1, 10), 1, 0);
        check.observe(status(2, RoleName.FOLLOWER, 1, 12), 1, 0);
        check.observe(status(2, RoleName.LEADER, 2, -1), 1, 0);
        assertFails("monotonic-high-watermark", () -> check.observe(status(2, RoleName.LEADER, 2, 11), 1, 0));
    }

    @Test
    void aRestartedNodeWhoseLogReachesItsOldHighWatermarkMayNotRelearnALowerOne() {
        ProgressCheck check = new ProgressCheck(3);
        check.observe(follower(2, 1, 30, 40), 1, 0);
        check.observe(follower(2, 1, 0, 40), 2, 0);
        check.observe(follower(2, 1, 0, 40), 2, 0);
        assertFails("monotonic-high-watermark", () -> check.observe(follower(2, 1, 25, 40), 2, 0));
    }

    /** A crash lost the unsynced tail (log end 20 < high watermark 30): it may report less, by what it lost only. */
    @Test
    void aNodeThatLostItsTailMayReportLessOnlyByWhatItLost() {
        ProgressCheck check = new ProgressCheck(3);
        check.observe(follower(2, 1, 30, 35), 1, 0);
        check.observe(follower(2, 1, 0, 20), 2, 0);
        assertDoesNotThrow(() -> check.observe(follower(2, 1, 20, 20), 2, 0), "up to its log end: legal");
        assertDoesNotThrow(() -> check.observe(follower(2, 1, 26, 26), 2, 0), "fetching the lost records back");
        assertFails("monotonic-high-watermark", () -> check.observe(follower(2, 1, 27, 32), 2, 0));

        ProgressCheck truncated = new ProgressCheck(3);
        truncated.observe(follower(2, 1, 30, 35), 1, 0);
        truncated.observe(follower(2, 1, 0, 28), 2, 0);
        // The records it recovered below its old high watermark were committed: truncating them excuses nothing.
        assertFails("monotonic-high-watermark", () -> truncated.observe(follower(2, 1, 24, 24), 2, 0));

        ProgressCheck wiped = new ProgressCheck(3);
        wiped.observe(follower(3, 1, 30, 30), 1, 0);
        wiped.observe(follower(3, 0, 0, 0), 2, 1);
        assertDoesNotThrow(() -> wiped.observe(follower(3, 1, 12, 12), 2, 1), "a wiped node fetching everything again");
        // A new disk is a new replica: it may first follow a deposed leader whose high watermark is behind.
        assertDoesNotThrow(() -> wiped.observe(follower(3, 1, 14, 40), 2, 1), "a wiped node learning from any leader");
        assertFails("monotonic-high-watermark", () -> wiped.observe(follower(3, 1, 13, 40), 2, 1));
    }

    @Test
    void theHighWatermarkMovesOnlyOverRecordsDurableOnAMajority() {
        DurableMajorityCheck check = new DurableMajorityCheck(3);
        RaftStatus before = status(1, RoleName.LEADER, 2, 5);
        check.wouldCheck(before, 1);
        RaftStatus moved = status(1, RoleName.LEADER, 2, 9);
        assertEquals(true, check.wouldCheck(moved, 1));
        assertDoesNotThrow(() -> check.observe(moved, 2, (offset, epoch) -> 2, 2));
        RaftStatus further = status(1, RoleName.LEADER, 2, 12);
        assertEquals(true, check.wouldCheck(further, 1));
        assertFails("high-watermark-on-majority", () -> check.observe(further, 2, (offset, epoch) -> 1, 2));
        assertEquals(false, check.wouldCheck(status(1, RoleName.LEADER, 3, 12), 1), "carried into a new epoch");
        assertEquals(false, check.wouldCheck(status(1, RoleName.FOLLOWER, 3, 20), 1), "followers only learn it");
    }

    /** A restarted process that is leader at once (a single voter) has its first high watermark judged too. */
    @Test
    void aLeadersFirstObservationAfterARestartIsJudged() {
        DurableMajorityCheck check = new DurableMajorityCheck(3);
        check.wouldCheck(status(1, RoleName.LEADER, 2, 5), 1);
        RaftStatus restarted = status(1, RoleName.LEADER, 3, 7);
        assertEquals(true, check.wouldCheck(restarted, 2));
        assertFails("high-watermark-on-majority", () -> check.observe(restarted, 3, (offset, epoch) -> 0, 1));
        DurableMajorityCheck follower = new DurableMajorityCheck(3);
        assertEquals(false, follower.wouldCheck(status(2, RoleName.FOLLOWER, 3, 7), 1), "a follower's is learned");
        assertEquals(false, follower.wouldCheck(status(2, RoleName.LEADER, 4, 7), 1), "then carried, not moved");
    }

    @Test
    void everyEpochIsCampaignedForBeforeAnyoneEntersIt() {
        EpochCampaignCheck check = new EpochCampaignCheck();
        check.observe(status(1, RoleName.CANDIDATE, 1, 0), epoch -> false);
        check.observe(status(2, RoleName.UNATTACHED, 1, 0), epoch -> false);
        check.observe(status(3, RoleName.UNATTACHED, 2, 0), epoch -> epoch == 2);
        assertFails("epoch-campaigned", () -> check.observe(status(2, RoleName.UNATTACHED, 3, 0), epoch -> false));
    }

    @Test
    void theCommittedLogNeverChangesAndHoldsEachAppendOnce() {
        CommittedLog log = new CommittedLog(MODEL);
        RecordBatch batch = clientBatch(0, 1, 1, 2, 3);
        assertEquals(3, log.expose(1, batch, 0, 3));
        assertEquals(3, log.expose(2, batch, 0, 3), "the same records again: fine");
        assertEquals(4, log.expose(2, clientBatch(2, 1, 3, 4), 3, 4), "extends by one");
        assertFails("committed-entry-stable", () -> log.expose(3, clientBatch(0, 2, 1, 2, 3), 0, 1));
        assertFails("append-exactly-once", () -> log.expose(3, clientBatch(4, 2, 2), 4, 5));
        assertEquals(6, log.expose(3, clientBatch(10, 1, 9), 6, 7), "a gap beyond the end is left for later");
    }

    @Test
    void theReferenceReplayDigestsEveryPrefix() {
        CommittedLog log = new CommittedLog(MODEL);
        RecordBatch batch = clientBatch(0, 1, 1, 2, 3);
        log.expose(1, batch, 0, 3);
        RecordStateMachine replica = MODEL.create();
        assertEquals(replica.digest(), log.digestAt(0));
        replica.apply(0, RecordBatches.records(batch).get(0));
        assertEquals(replica.digest(), log.digestAt(1));
        StateMachineCheck check = new StateMachineCheck(3);
        assertDoesNotThrow(() -> check.observe(1, 1, 1, replica.digest(), log));
        replica.apply(1, RecordBatches.records(batch).get(2));
        assertFails("state-machine-matches-replay", () -> check.observe(1, 1, 2, replica.digest(), log));
    }

    @Test
    void snapshotsSitAtTheLogStartAndNameACommittedRecord() {
        CommittedLog log = new CommittedLog(MODEL);
        log.expose(1, clientBatch(0, 2, 1, 2, 3, 4), 0, 4);
        SnapshotCheck check = new SnapshotCheck();
        assertDoesNotThrow(() -> check.observe(1, 0, Optional.empty(), log));
        assertDoesNotThrow(() -> check.observe(1, 3, Optional.of(new OffsetAndEpoch(3, 2)), log));
        assertFails("snapshot-at-log-start", () -> check.observe(1, 2, Optional.of(new OffsetAndEpoch(3, 2)), log));
        assertFails("snapshot-at-log-start", () -> check.observe(1, 3, Optional.of(new OffsetAndEpoch(3, 1)), log));
    }

    /** A snapshot beyond the committed prefix is judged later, once the prefix reaches it, and never skipped. */
    @Test
    void aSnapshotBeyondTheCommittedPrefixIsJudgedOnceItIsReached() {
        CommittedLog log = new CommittedLog(MODEL);
        log.expose(1, clientBatch(0, 2, 1, 2), 0, 2);
        SnapshotCheck check = new SnapshotCheck();
        Optional<OffsetAndEpoch> good = Optional.of(new OffsetAndEpoch(4, 2));
        Optional<OffsetAndEpoch> bad = Optional.of(new OffsetAndEpoch(4, 1));
        assertEquals(false, check.observe(1, 4, good, log), "not judged yet");
        assertEquals(false, check.observe(2, 4, bad, log), "not judged yet");
        assertFails("snapshot-at-log-start", () -> check.requireJudged(2, 4, bad, log));
        log.expose(1, clientBatch(2, 2, 3, 4), 2, 4);
        assertEquals(true, check.observe(1, 4, good, log));
        assertFails("snapshot-at-log-start", () -> check.observe(2, 4, bad, log));
        assertDoesNotThrow(() -> check.requireJudged(1, 4, good, log));
    }

    @Test
    void everyAcknowledgedAppendIsCommittedWhereItWasAcknowledged() {
        CommittedLog log = new CommittedLog(MODEL);
        log.expose(1, clientBatch(0, 1, 7, 8), 0, 2);
        AppendCheck check = new AppendCheck();
        check.onAcked(List.of(new AppendTracker.AckedAppend(7, 0, 1, 0)), log);
        check.onAcked(List.of(new AppendTracker.AckedAppend(9, 5, 1, 0)), log);
        assertFails("append-exactly-once", check::requireAllJudged);
        AppendCheck wrongPlace = new AppendCheck();
        assertFails("append-exactly-once",
                () -> wrongPlace.onAcked(List.of(new AppendTracker.AckedAppend(8, 0, 1, 0)), log));
        assertEquals(1, check.judgedCount());
    }
}

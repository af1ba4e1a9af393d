package io.metaquorum.raft.core.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.snapshot.SnapshotEncoder;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VoterTrackingLogTest {
    private static final VoterSet STATIC = VoterSet.ofIds(List.of(1, 2, 3));
    private static final VoterSet WITH_DIRS = VoterSet.of(List.of(
            new VoterSet.Voter(new ReplicaKey(1, TopicIds.uuid(1, 1)), List.of()),
            new VoterSet.Voter(new ReplicaKey(2, TopicIds.uuid(1, 2)), List.of())));
    private static final VoterSet SMALLER = VoterSet.of(List.of(
            new VoterSet.Voter(new ReplicaKey(1, TopicIds.uuid(1, 1)), List.of())));

    private static ByteString voters(VoterSet set) {
        return ControlRecord.newBuilder().setVoters(set.toRecord()).build().toByteString();
    }

    private static void append(VoterTrackingLog log, int epoch, boolean control, ByteString... records) {
        log.append(RecordBatches.build(log.endOffset(), epoch, 0, control, List.of(records)));
    }

    @Test
    void theActiveSetFollowsTheLogAndRevertsOnTruncation() {
        List<VoterSet> heard = new ArrayList<>();
        VoterTrackingLog log = VoterTrackingLog.open(new InMemoryRaftLog(), new VoterSetHistory(STATIC), heard::add);
        append(log, 1, false, ByteString.copyFromUtf8("data"));
        append(log, 1, true, voters(WITH_DIRS));
        assertEquals(WITH_DIRS, log.history().active());
        append(log, 2, true, voters(SMALLER));
        assertEquals(SMALLER, log.history().active(), "uncommitted counts");
        log.truncateTo(2);
        assertEquals(WITH_DIRS, log.history().active());
        log.truncateTo(1);
        assertEquals(STATIC, log.history().active());
        assertEquals(List.of(WITH_DIRS, SMALLER, WITH_DIRS, STATIC), heard);
    }

    @Test
    void reopeningAnExistingLogFindsItsLatestVotersRecord() {
        InMemoryRaftLog raw = new InMemoryRaftLog();
        VoterTrackingLog log = VoterTrackingLog.open(raw, new VoterSetHistory(STATIC), set -> { });
        append(log, 1, true, voters(WITH_DIRS));
        append(log, 1, false, ByteString.copyFromUtf8("data"));
        VoterTrackingLog reopened = VoterTrackingLog.open(raw, new VoterSetHistory(STATIC), set -> { });
        assertEquals(WITH_DIRS, reopened.history().active());
    }

    /** The snapshot replaces the log that held the VotersRecord: the set must survive in it, and a restart. */
    @Test
    void aSnapshotKeepsTheVoterSet() {
        InMemoryRaftLog raw = new InMemoryRaftLog();
        VoterTrackingLog log = VoterTrackingLog.open(raw, new VoterSetHistory(STATIC), set -> { });
        append(log, 1, true, voters(WITH_DIRS));
        append(log, 1, false, ByteString.copyFromUtf8("a"), ByteString.copyFromUtf8("b"));
        SnapshotWriter writer = log.createSnapshot(new OffsetAndEpoch(3, 1));
        SnapshotEncoder encoder = new SnapshotEncoder(writer, 0, 10, 1 << 20, List.of(voters(WITH_DIRS)));
        encoder.add(ByteString.copyFromUtf8("a,b"));
        encoder.finish();
        log.installSnapshot(writer);
        assertEquals(3, raw.startOffset());
        assertEquals(WITH_DIRS, log.history().active());
        VoterTrackingLog reopened = VoterTrackingLog.open(raw, new VoterSetHistory(STATIC), set -> { });
        assertEquals(WITH_DIRS, reopened.history().active(), "read back from the snapshot");
    }
}

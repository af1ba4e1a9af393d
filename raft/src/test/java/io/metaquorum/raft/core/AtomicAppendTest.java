package io.metaquorum.raft.core;

import io.metaquorum.raft.AppendResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.AppendResult.Status;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Atomic appends: all records of one append in one batch, or a refusal the caller can act on. */
class AtomicAppendTest {
    private static final int BATCH_RECORDS_MAX = 16;
    private static final int BATCH_BYTES_MAX = 1024;
    private static final RaftLimits LIMITS =
            new RaftLimits(1 << 20, 256, BATCH_RECORDS_MAX, BATCH_BYTES_MAX, 1 << 16, 1 << 20);

    /** Records tagged with the append and their position in it, padded by {@code padding} bytes each. */
    private static List<ByteString> records(int appendIndex, List<Integer> padding) {
        List<ByteString> records = new ArrayList<>();
        for (int i = 0; i < padding.size(); i++) {
            records.add(ByteString.copyFromUtf8("a" + appendIndex + "r" + i + ":" + "x".repeat(padding.get(i))));
        }
        return records;
    }

    private static long bytes(List<ByteString> records) {
        return records.stream().mapToLong(ByteString::size).sum();
    }

    private static SoloLeader leader() {
        return new SoloLeader(LIMITS, new CoreCluster.RecordingListener());
    }

    @Property(tries = 300)
    void anAtomicAppendIsNeverSplitAcrossBatches(
            @ForAll @Size(min = 1, max = 40) List<@Size(min = 1, max = 24) List<@IntRange(max = 120) Integer>> appends,
            @ForAll @Size(min = 1, max = 17) List<Boolean> stepAfter) {
        SoloLeader leader = leader();
        List<List<ByteString>> accepted = new ArrayList<>();
        List<Long> lastOffsets = new ArrayList<>();
        for (int i = 0; i < appends.size(); i++) {
            List<ByteString> records = records(i, appends.get(i));
            boolean fits = records.size() <= BATCH_RECORDS_MAX && bytes(records) <= BATCH_BYTES_MAX;
            AppendResult result = leader.append(leader.epoch(), records);
            assertEquals(fits ? Status.ACCEPTED : Status.TOO_LARGE, result.status(), "append " + i);
            if (result.accepted()) {
                accepted.add(records);
                lastOffsets.add(result.lastOffset());
            }
            if (stepAfter.get(i % stepAfter.size())) {
                leader.step();
            }
        }
        leader.step();

        List<ByteString> expectedInOrder = new ArrayList<>();
        for (int i = 0; i < accepted.size(); i++) {
            List<ByteString> records = accepted.get(i);
            long last = lastOffsets.get(i);
            assertEquals(records, leader.recordsOfOneBatch(last - records.size() + 1, last), "append " + i);
            expectedInOrder.addAll(records);
        }
        List<ByteString> logged = new ArrayList<>();
        for (RecordBatch batch : leader.dataBatches()) {
            List<ByteString> records = RecordBatches.records(batch);
            assertTrue(records.size() <= BATCH_RECORDS_MAX, "batch of " + records.size() + " records");
            assertTrue(bytes(records) <= BATCH_BYTES_MAX, "batch of " + bytes(records) + " bytes");
            logged.addAll(records);
        }
        assertEquals(expectedInOrder, logged);
    }

    @Test
    void appendsQueuedTogetherShareOneBatch() {
        SoloLeader leader = leader();
        leader.append(leader.epoch(), records(0, List.of(1, 1)));
        leader.append(leader.epoch(), records(1, List.of(1)));
        AppendResult last = leader.append(leader.epoch(), records(2, List.of(1, 1, 1)));
        leader.step();
        List<RecordBatch> batches = leader.dataBatches();
        assertEquals(1, batches.size());
        assertEquals(6, batches.get(0).getRecordCount());
        assertEquals(RecordBatches.endOffset(batches.get(0)) - 1, last.lastOffset());
    }

    @Test
    void anAppendInAnotherEpochIsRefusedWithTheEpochThisReplicaLeads() {
        SoloLeader leader = leader();
        int epoch = leader.epoch();
        assertEquals(AppendResult.refused(Status.WRONG_EPOCH, epoch), leader.append(epoch - 1, records(0, List.of(1))));
        assertEquals(AppendResult.refused(Status.WRONG_EPOCH, epoch), leader.append(epoch + 1, records(0, List.of(1))));
        leader.step();
        assertEquals(List.of(), leader.dataBatches());
    }

    @Test
    void anAppendOverTheBatchLimitIsRefusedAsTooLarge() {
        SoloLeader leader = leader();
        int epoch = leader.epoch();
        List<Integer> tooMany = new ArrayList<>();
        for (int i = 0; i <= BATCH_RECORDS_MAX; i++) {
            tooMany.add(0);
        }
        assertEquals(Status.TOO_LARGE, leader.append(epoch, records(0, tooMany)).status());
        assertEquals(Status.TOO_LARGE, leader.append(epoch, records(1, List.of(BATCH_BYTES_MAX))).status());
        // Exactly at the limit fits.
        List<ByteString> atLimit = List.of(ByteString.copyFrom(new byte[BATCH_BYTES_MAX]));
        assertEquals(Status.ACCEPTED, leader.append(epoch, atLimit).status());
        assertEquals(Status.EMPTY, leader.append(epoch, List.of()).status());
        leader.step();
        assertEquals(1, leader.dataBatches().size());
    }

    @Test
    void aReplicaThatDoesNotLeadRefusesAsNotLeader() {
        OneReplica follower = new OneReplica();
        int epoch = follower.core.status().epoch();
        assertEquals(AppendResult.refused(Status.NOT_LEADER, epoch),
                follower.core.append(epoch, records(0, List.of(1)), follower.nowMs));
    }

    @Test
    void aLeaderThatIsShuttingDownRefusesAsNotLeader() {
        SoloLeader leader = leader();
        leader.core.beginShutdown(leader.nowMs);
        assertEquals(Status.NOT_LEADER, leader.append(leader.epoch(), records(0, List.of(1))).status());
    }

    @Test
    void aResignedLeaderRefusesItsOwnEpochAsNotLeader() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        replica.core.resign(replica.nowMs);
        assertEquals(AppendResult.refused(Status.NOT_LEADER, epoch),
                replica.core.append(epoch, records(0, List.of(1)), replica.nowMs));
    }
}

package io.metaquorum.sim.machine;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.metadata.snapshot.RaftStateRecords;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.snapshot.SnapshotDecoder;
import io.metaquorum.raft.snapshot.SnapshotEncoder;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.check.CoreFailures;
import java.util.ArrayList;
import java.util.List;
import io.metaquorum.raft.storage.RecordBatches;

/**
 * The {@link RaftListener} of one process incarnation: feeds committed batches to a
 * {@link RecordStateMachine} and checks the listener contract as it goes: batches arrive in
 * offset order, each exactly once, continuing from the last snapshot loaded.
 *
 * <p>Invariant: {@code appliedOffset} is one past the last record applied (or the loaded
 * snapshot's offset).
 */
public final class StateMachineListener implements RaftListener {
    private final int nodeId;
    private final StateMachineModel model;
    private final RecordStateMachine machine;
    private final CommitSink sink;
    private long appliedOffset;
    private long lastAppendTimeMs;
    /**
     * The committed KRaftVersionRecord and VotersRecord, which a snapshot must carry (KIP-853):
     * it replaces the log that held them. Kept as production's metadata loader keeps them.
     */
    private final RaftStateRecords raftState = new RaftStateRecords();

    public StateMachineListener(int nodeId, StateMachineModel model, CommitSink sink) {
        this.nodeId = nodeId;
        this.model = model;
        this.machine = model.create();
        this.sink = sink;
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        for (RecordBatch batch : batches) {
            if (batch.getBaseOffset() != appliedOffset) {
                throw new CheckFailure("commit-order", "node " + nodeId + " was given the batch at offset "
                        + batch.getBaseOffset() + " but has applied up to " + appliedOffset);
            }
            long offset = batch.getBaseOffset();
            for (ByteString record : RecordBatches.records(batch)) {
                if (batch.getControl()) {
                    raftState.note(controlRecord(record, offset), record);
                } else {
                    machine.apply(offset, record);
                    long appendId = model.appendIdOf(record);
                    if (appendId >= 0) {
                        sink.onClientRecordApplied(nodeId, offset, appendId);
                    }
                }
                offset++;
            }
            appliedOffset = offset;
            lastAppendTimeMs = batch.getAppendTimeMs();
        }
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        // Decoded batch by batch, as a node does; the model's state is small enough to restore from a list.
        SnapshotDecoder decoder = SnapshotDecoder.of(snapshot);
        List<ByteString> records = new ArrayList<>();
        for (List<ByteString> batch = decoder.nextBatch(); batch != null; batch = decoder.nextBatch()) {
            records.addAll(batch);
        }
        raftState.reset(decoder.raftRecords());
        machine.restore(snapshotId.offset(), records);
        appliedOffset = snapshotId.offset();
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        // The model keeps no leader: the checks read every node's status directly.
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        // The workload appends through the node's status, not from the state machine.
    }

    @Override
    public void handleResign(int epoch) {
        // The model holds committed state only.
    }

    /** Writes a snapshot of the current state into {@code out} and freezes it. */
    public void writeSnapshot(SnapshotWriter out, int batchRecordsMax) {
        SnapshotEncoder encoder = new SnapshotEncoder(out, lastAppendTimeMs, batchRecordsMax, Integer.MAX_VALUE,
                raftState.records());
        machine.snapshotRecords().forEach(encoder::add);
        encoder.finish();
    }

    public long appliedOffset() {
        return appliedOffset;
    }

    public long digest() {
        return machine.digest();
    }

    private ControlRecord controlRecord(ByteString record, long offset) {
        try {
            return ControlRecord.parseFrom(record);
        } catch (InvalidProtocolBufferException e) {
            throw new CheckFailure(CoreFailures.EXCEPTION, "node " + nodeId + " committed a control record at "
                    + offset + " that does not parse: " + e.getMessage());
        }
    }
}

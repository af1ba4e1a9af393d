package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.sim.machine.RecordStateMachine;
import io.metaquorum.sim.machine.StateMachineModel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.metaquorum.raft.storage.RecordBatches;

/**
 * The model of the committed log, built from what nodes expose below their high
 * watermarks: for every offset the record's epoch and a digest of its content, and the
 * state a fresh state machine reaches replaying the committed records up to each offset.
 * Whoever exposes an offset first defines it; every later exposure must match.
 *
 * <p>Invariants: offsets {@code [0, endOffset)} are known, contiguous and never change; an
 * append id appears at most once; {@code digestAt[o]} is the reference state's digest after
 * replaying {@code [0, o)}.
 */
public final class CommittedLog implements CommittedPrefix {
    private final StateMachineModel model;
    private final RecordStateMachine reference;
    private int[] epochs = new int[1024];
    private long[] recordDigests = new long[1024];
    private long[] digestAt = new long[1025];
    private long endOffset;
    /** Looked up only, never iterated. */
    private final Map<Long, Long> offsetByAppendId = new HashMap<>();

    public CommittedLog(StateMachineModel model) {
        this.model = model;
        this.reference = model.create();
        digestAt[0] = reference.digest();
    }

    @Override
    public long committedEndOffset() {
        return endOffset;
    }

    @Override
    public int committedEpochAt(long offset) {
        return epochs[(int) offset];
    }

    /** The reference state's digest after replaying {@code [0, offset)}; offset at most the end. */
    public long digestAt(long offset) {
        return digestAt[(int) offset];
    }

    /** The offset where the record carrying {@code appendId} committed, or -1. */
    public long offsetOfAppend(long appendId) {
        return offsetByAppendId.getOrDefault(appendId, -1L);
    }

    /** Whether {@code batch}'s record at {@code offset} is the committed one (the offset must be below the end). */
    public boolean matches(RecordBatch batch, long offset) {
        return matches(batch, RecordBatches.records(batch), offset);
    }

    private boolean matches(RecordBatch batch, List<ByteString> records, long offset) {
        return epochs[(int) offset] == batch.getEpoch()
                && recordDigests[(int) offset] == recordDigest(batch, records, offset);
    }

    /**
     * Node {@code nodeId} exposes {@code batch}'s records in {@code [from, to)} as committed:
     * checks those already known, appends the next ones. Returns where it stopped: {@code to},
     * or the model's end if {@code from} lies beyond it (the gap is filled by other nodes).
     */
    public long expose(int nodeId, RecordBatch batch, long from, long to) {
        List<ByteString> records = RecordBatches.records(batch);
        long offset = from;
        for (; offset < to; offset++) {
            if (offset < endOffset) {
                if (!matches(batch, records, offset)) {
                    throw new CheckFailure("committed-entry-stable", "node " + nodeId + " exposes offset " + offset
                            + " as committed with epoch " + batch.getEpoch() + " and different content; committed"
                            + " epoch is " + epochs[(int) offset]);
                }
            } else if (offset == endOffset) {
                append(nodeId, batch, records, offset);
            } else {
                return offset;
            }
        }
        return offset;
    }

    private void append(int nodeId, RecordBatch batch, List<ByteString> records, long offset) {
        ensureCapacity(offset + 1);
        int index = (int) offset;
        epochs[index] = batch.getEpoch();
        recordDigests[index] = recordDigest(batch, records, offset);
        if (!batch.getControl()) {
            ByteString record = records.get((int) (offset - batch.getBaseOffset()));
            reference.apply(offset, record);
            long appendId = model.appendIdOf(record);
            if (appendId >= 0) {
                Long previous = offsetByAppendId.putIfAbsent(appendId, offset);
                if (previous != null) {
                    throw new CheckFailure("append-exactly-once", "append id " + appendId + " committed twice: at "
                            + previous + " and, exposed by node " + nodeId + ", at " + offset);
                }
            }
        }
        digestAt[index + 1] = reference.digest();
        endOffset = offset + 1;
    }

    private void ensureCapacity(long size) {
        if (size > epochs.length) {
            int capacity = (int) Math.max(size, epochs.length * 2L);
            epochs = Arrays.copyOf(epochs, capacity);
            recordDigests = Arrays.copyOf(recordDigests, capacity);
            digestAt = Arrays.copyOf(digestAt, capacity + 1);
        }
    }

    private static long recordDigest(RecordBatch batch, List<ByteString> records, long offset) {
        ByteString record = records.get((int) (offset - batch.getBaseOffset()));
        long hash = batch.getControl() ? 0x51ED27L : 0x2545F491L;
        for (int i = 0; i < record.size(); i++) {
            hash = (hash ^ (record.byteAt(i) & 0xFF)) * 0x100000001B3L;
        }
        return hash ^ record.size();
    }
}

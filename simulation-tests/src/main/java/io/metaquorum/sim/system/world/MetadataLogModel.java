package io.metaquorum.sim.system.world;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.sim.invariant.CommittedLog;
import io.metaquorum.sim.machine.RecordStateMachine;
import io.metaquorum.sim.machine.StateMachineModel;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The raft checks' state machine in system mode: the records are the controller's metadata
 * records, judged by the system checks; here they only feed a digest of the applied sequence
 * (so the raft layer's state-machine check still proves every node applied the same records
 * in the same order). It has no client records: the controller is the only writer.
 *
 * <p>Snapshots are the nodes' own: their loaders write the metadata image
 * ({@code SimSnapshotWriter}), and what a loaded snapshot holds is judged where the image is,
 * by {@code image-equals-replay} (the loader's image after the load must equal the committed
 * log replayed to the snapshot's offset). A sequence digest cannot be rebuilt from an image,
 * so a restored digest continues from the committed log's own digest at the snapshot's
 * offset: from there on, this check again proves every record the node applies.
 */
public final class MetadataLogModel implements StateMachineModel {
    private CommittedLog committed;

    /** The committed log whose digests a restored state continues from; bound once the log exists. */
    public void bindCommittedLog(CommittedLog log) {
        Invariants.check(committed == null, "the metadata model is bound to a committed log once");
        this.committed = log;
    }

    @Override
    public String name() {
        return "metadata";
    }

    @Override
    public RecordStateMachine create() {
        return new Digest();
    }

    @Override
    public ByteString clientRecord(long appendId, RandomGenerator random) {
        throw new UnsupportedOperationException("system mode has no raft clients: the controller writes");
    }

    @Override
    public long appendIdOf(ByteString record) {
        return -1;
    }

    private final class Digest implements RecordStateMachine {
        private long digest = 0x1CEB00DAL;

        @Override
        public void apply(long offset, ByteString record) {
            // The content's own 32-bit hash (a tight loop over its bytes), mixed with the offset into the sequence.
            long z = digest * 0x9E3779B97F4A7C15L + (offset << 32 ^ (record.hashCode() & 0xFFFFFFFFL));
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            digest = z ^ (z >>> 31);
        }

        @Override
        public List<ByteString> snapshotRecords() {
            throw new UnsupportedOperationException("in system mode the loaders write the snapshots");
        }

        @Override
        public void restore(long snapshotOffset, List<ByteString> records) {
            Invariants.check(committed != null && snapshotOffset <= committed.committedEndOffset(),
                    "a snapshot at %d loaded beyond the committed log known so far", snapshotOffset);
            digest = committed.digestAt(snapshotOffset);
        }

        @Override
        public long digest() {
            return digest;
        }
    }
}

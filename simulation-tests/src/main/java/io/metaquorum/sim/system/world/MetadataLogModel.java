package io.metaquorum.sim.system.world;

import com.google.protobuf.ByteString;
import io.metaquorum.sim.workload.RecordStateMachine;
import io.metaquorum.sim.workload.StateMachineModel;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The raft checks' state machine in system mode: the records are the controller's metadata
 * records, judged by the system checks; here they only feed a digest of the applied sequence
 * (so the raft layer's state-machine check still proves every node applied the same records).
 * It has no client records: the controller is the only writer. Snapshots are off in system
 * mode, so it is never written out or restored.
 */
public final class MetadataLogModel implements StateMachineModel {
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

    private static final class Digest implements RecordStateMachine {
        private long digest = 0x1CEB00DAL;

        @Override
        public void apply(long offset, ByteString record) {
            long hash = digest ^ offset;
            for (int i = 0; i < record.size(); i++) {
                hash = (hash ^ (record.byteAt(i) & 0xFF)) * 0x100000001B3L;
            }
            digest = hash;
        }

        @Override
        public List<ByteString> snapshotRecords() {
            throw new UnsupportedOperationException("snapshots are off in system mode");
        }

        @Override
        public void restore(List<ByteString> records) {
            throw new UnsupportedOperationException("snapshots are off in system mode");
        }

        @Override
        public long digest() {
            return digest;
        }
    }
}

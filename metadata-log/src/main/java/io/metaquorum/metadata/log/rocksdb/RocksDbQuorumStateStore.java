package io.metaquorum.metadata.log.rocksdb;

import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.protocol.QuorumStateRecord;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.QuorumStateStore;
import io.metaquorum.raft.storage.StorageException;
import java.util.Objects;
import java.util.Optional;

/**
 * The election state as a {@link QuorumStateRecord} under one key of the {@code meta}
 * column family, in the database the log uses. Every write is synced (and with it any
 * buffered log append before it) before {@link #write} returns, so a vote is durable
 * before it is answered.
 */
public final class RocksDbQuorumStateStore implements QuorumStateStore {
    private final LogDatabase database;

    RocksDbQuorumStateStore(LogDatabase database) {
        this.database = database;
    }

    @Override
    public Optional<ElectionState> read() {
        byte[] value = database.get(database.meta(), Keys.QUORUM_STATE);
        if (value == null) {
            return Optional.empty();
        }
        try {
            QuorumStateRecord record = QuorumStateRecord.parseFrom(value);
            return Optional.of(new ElectionState(record.getLeaderEpoch(), record.getLeaderId(), record.getVotedId()));
        } catch (InvalidProtocolBufferException e) {
            throw new StorageException("the quorum state in " + database.directory() + " does not parse", e);
        }
    }

    @Override
    public void write(ElectionState state) {
        Objects.requireNonNull(state, "election state");
        QuorumStateRecord record = QuorumStateRecord.newBuilder()
                .setLeaderEpoch(state.epoch())
                .setLeaderId(state.leaderId())
                .setVotedId(state.votedId())
                .build();
        try (LogWrite write = database.newWrite()) {
            write.putMeta(Keys.QUORUM_STATE, record.toByteArray()).commitSynced();
        }
    }
}

package io.metaquorum.metadata.tool;

import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.log.rocksdb.RocksDbRaftLog;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.quorum.VoterSetHistory;
import io.metaquorum.raft.core.quorum.VoterTrackingLog;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.List;

/**
 * The last resort after a majority of controllers is lost for good ({@code mq-metadata
 * unsafe-recover}, like etcd's {@code --force-new-cluster}): a VotersRecord naming the new
 * voter set appended to a stopped survivor's log, at its end, in an epoch no replica has
 * used. The latest VotersRecord in the log is the active set, committed or not (KIP-853), so
 * on start the survivor takes it at once and the new voters elect among themselves.
 *
 * <p>The new epoch is one above both the log's last epoch and the election state's, and the
 * election state moves to it with no vote and no leader: the node can then neither vote twice
 * nor lead an epoch it took part in before, and a returning old replica whose log went further
 * in an older epoch is truncated back to this log by the usual epoch check of its fetches.
 */
public final class ForcedVoterSet {
    private ForcedVoterSet() {
    }

    /**
     * What the stopped node's log holds and what forcing the new set would write.
     *
     * @param currentVoters    the active set now: the latest VotersRecord, else the snapshot's, else the bootstrap set
     * @param logEndOffset     where the VotersRecord would go
     * @param logLastEpoch     the epoch of the log's last batch (or snapshot)
     * @param quorumStateEpoch the epoch of the persisted election state, 0 when none
     */
    public record Plan(VoterSet currentVoters, long logEndOffset, int logLastEpoch, int quorumStateEpoch,
                       VoterSet newVoters) {
        /** An epoch above every epoch this node has seen, in its log or in an election. */
        public int newEpoch() {
            return Math.max(logLastEpoch, quorumStateEpoch) + 1;
        }
    }

    /**
     * Reads the state of {@code store} (opened for writing, so no node runs on it);
     * {@code bootstrapVoters} is the set in force while the log names none.
     */
    public static Plan plan(MetadataLogStore store, VoterSet bootstrapVoters, VoterSet newVoters) {
        RocksDbRaftLog log = store.raftLog();
        VoterSetHistory history = new VoterSetHistory(bootstrapVoters);
        // Scans the latest snapshot and every batch above it, as the raft core does at start-up.
        VoterTrackingLog.open(log, history, active -> { });
        int stateEpoch = store.quorumStateStore().read().map(ElectionState::epoch).orElse(0);
        return new Plan(history.active(), log.endOffset(), log.lastEpoch(), stateEpoch, newVoters);
    }

    /**
     * Writes {@code plan}: the election state first, then the VotersRecord, each durable before
     * the next step. A crash between the two leaves a higher epoch and the old voter set, from
     * which running the command again picks the next epoch. Returns the record's offset.
     */
    public static long apply(MetadataLogStore store, Plan plan, long nowMs) {
        RocksDbRaftLog log = store.raftLog();
        if (log.endOffset() != plan.logEndOffset()) {
            throw new IllegalStateException("the log end moved from " + plan.logEndOffset() + " to "
                    + log.endOffset() + " since the plan was made");
        }
        store.quorumStateStore().write(new ElectionState(plan.newEpoch(), ElectionState.NONE, ElectionState.NONE));
        ControlRecord record = ControlRecord.newBuilder().setVoters(plan.newVoters().toRecord()).build();
        log.append(RecordBatches.build(plan.logEndOffset(), plan.newEpoch(), nowMs, true,
                List.of(record.toByteString())));
        log.flush();
        return plan.logEndOffset();
    }
}

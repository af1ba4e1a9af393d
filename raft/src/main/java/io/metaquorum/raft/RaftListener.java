package io.metaquorum.raft;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;

/**
 * The replicated state machine, called by the core on the driver thread. Committed batches
 * arrive in offset order, each exactly once per incarnation; after
 * {@link #handleLoadSnapshot} the state machine must drop its state and take the
 * snapshot's, then commits continue from the snapshot's offset.
 *
 * <p>Leadership is reported once per change, at the end of the core call that made it:
 * <ul>
 *   <li>{@link #handleLeaderChange} on every replica whenever the leader it knows or its
 *       epoch changes (a new leader hears its own id);</li>
 *   <li>on the leader, {@link #handleBecomeLeader} once its state machine may write in its
 *       epoch, and {@link #handleResign} exactly once when that leadership ends (resigned,
 *       lost check-quorum, fenced by a higher epoch), before the change that ended it is
 *       reported through {@link #handleLeaderChange}.</li>
 * </ul>
 * A leadership that ends before its leader-change record commits is reported by neither of
 * the last two: the state machine never led in it. Before the first report a replica knows
 * {@code LeaderAndEpoch.noLeader(0)}.
 */
public interface RaftListener {
    /** Batches at or below the high watermark, in order, control batches included. */
    void handleCommit(List<RecordBatch> batches);

    /**
     * Replace all state by the snapshot {@code snapshotId}, in the SnapshotCodec format. Read
     * it in chunks from {@code snapshot} (io.metaquorum.raft.snapshot.SnapshotDecoder), never
     * into one array: a snapshot can be far larger than any chunk. The reader is valid for
     * this call only.
     */
    void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot);

    /**
     * The leader this replica knows changed; {@link LeaderAndEpoch#NO_LEADER} while none is
     * known. A follower that pre-votes still names its leader (a pre-vote unseats nobody); a
     * leader that resigned names none.
     */
    void handleLeaderChange(LeaderAndEpoch leader);

    /**
     * This replica leads {@code epoch} and its state machine is caught up: every batch up to
     * and including {@code epochStartOffset} (the leader-change record of this epoch, after
     * all records of earlier leaders) has been passed to {@link #handleCommit}. The records
     * it appends in {@code epoch} (RaftNode.append(epoch, records)) go after
     * {@code epochStartOffset}.
     */
    void handleBecomeLeader(int epoch, long epochStartOffset);

    /**
     * This replica no longer leads {@code epoch}, whose {@link #handleBecomeLeader} was
     * reported. Records appended in it and not yet committed may never commit: the state
     * machine drops what it assumed of them and goes back to its committed state.
     */
    void handleResign(int epoch);

    /**
     * Raft has control records of its own to append in {@code epoch}, which this state machine
     * leads ({@link #handleBecomeLeader} reported, {@link #handleResign} not yet): the
     * VotersRecord of an AddVoter or RemoveVoter. A state machine that counts the offsets of its
     * appends before raft confirms them returns true and appends {@code records} itself, in its
     * own order, with {@code RaftNode.appendControl(epoch, records)}, so that no offset it
     * counted on moves; raft holds the change until then (or until the epoch ends). The default
     * returns false: raft appends them at once, behind what is queued.
     */
    default boolean handleControlRecords(int epoch, List<ByteString> records) {
        return false;
    }
}

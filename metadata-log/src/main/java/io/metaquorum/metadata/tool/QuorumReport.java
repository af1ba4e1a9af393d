package io.metaquorum.metadata.tool;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.PendingVoterChange;
import io.metaquorum.protocol.ReplicaState;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The quorum as {@code mq-metadata quorum} shows it, built from the leader's
 * DescribeQuorum answer. Ages are computed against the leader's own clock ({@code now_ms}),
 * so the tool's clock never enters them.
 *
 * @param nowMs              the answering leader's clock when it answered
 * @param pendingVoterChange the voter set the leader appended and has not committed (KIP-853), if any
 */
public record QuorumReport(String clusterId, int leaderId, int leaderEpoch, long highWatermark, long nowMs,
                           List<Replica> voters, List<Replica> observers,
                           Optional<PendingChange> pendingVoterChange) {
    /** A voter as a VotersRecord names it; {@code directoryId} base64, empty when it has none. */
    public record Voter(int nodeId, String directoryId) {
    }

    /**
     * The leader's latest VotersRecord while it is not committed: its offset, the set it
     * installs, and the voters it adds and removes against the set before it.
     */
    public record PendingChange(long offset, List<Voter> voters, List<Voter> added, List<Voter> removed) {
        public PendingChange {
            voters = List.copyOf(voters);
            added = List.copyOf(added);
            removed = List.copyOf(removed);
        }
    }

    /**
     * One replica as the leader tracks it.
     *
     * @param lastFetchTimestampMs     leader clock, -1 when never
     * @param lastCaughtUpTimestampMs  leader clock, -1 when never
     * @param directoryId              base64, empty when the replica has none (KIP-853)
     */
    public record Replica(int nodeId, long logEndOffset, long lastFetchTimestampMs, long lastCaughtUpTimestampMs,
                          String directoryId) {
        /** A replica without a directory id (a static voter, or an observer that sent none). */
        public Replica(int nodeId, long logEndOffset, long lastFetchTimestampMs, long lastCaughtUpTimestampMs) {
            this(nodeId, logEndOffset, lastFetchTimestampMs, lastCaughtUpTimestampMs, "");
        }
    }

    public QuorumReport {
        voters = List.copyOf(voters);
        observers = List.copyOf(observers);
    }

    /** Reads the single metadata partition of a successful response. */
    public static QuorumReport from(DescribeQuorumResponse response) {
        DescribeQuorumPartitionResponse partition = response.getTopics(0).getPartitions(0);
        return new QuorumReport(response.getClusterId(), partition.getLeaderId(), partition.getLeaderEpoch(),
                partition.getHighWatermark(), partition.getNowMs(), replicas(partition.getCurrentVotersList()),
                replicas(partition.getObserversList()), partition.hasPendingVoterChange()
                        ? Optional.of(pendingChange(partition.getPendingVoterChange())) : Optional.empty());
    }

    private static PendingChange pendingChange(PendingVoterChange change) {
        return new PendingChange(change.getOffset(), voters(change.getVotersList()), voters(change.getAddedList()),
                voters(change.getRemovedList()));
    }

    private static List<Voter> voters(List<io.metaquorum.protocol.ReplicaKey> keys) {
        List<Voter> voters = new ArrayList<>(keys.size());
        for (io.metaquorum.protocol.ReplicaKey key : keys) {
            boolean hasDirectory = key.hasDirectoryId() && !key.getDirectoryId().equals(TopicIds.ZERO);
            voters.add(new Voter(key.getReplicaId(), hasDirectory ? TopicIds.toBase64(key.getDirectoryId()) : ""));
        }
        return voters;
    }

    private static List<Replica> replicas(List<ReplicaState> states) {
        List<Replica> replicas = new ArrayList<>(states.size());
        for (ReplicaState state : states) {
            boolean hasDirectory = state.hasReplicaDirectoryId() && !state.getReplicaDirectoryId().equals(TopicIds.ZERO);
            replicas.add(new Replica(state.getReplicaId(), state.getLogEndOffset(),
                    state.getLastFetchTimestampMs(), state.getLastCaughtUpTimestampMs(),
                    hasDirectory ? TopicIds.toBase64(state.getReplicaDirectoryId()) : ""));
        }
        return replicas;
    }

    /** The leader's log end offset as it reports itself among the voters; the high watermark if absent. */
    public long leaderLogEndOffset() {
        for (Replica voter : voters) {
            if (voter.nodeId() == leaderId) {
                return voter.logEndOffset();
            }
        }
        return highWatermark;
    }

    /** How many records {@code replica} is behind the leader's log end (Kafka's definition). */
    public long lag(Replica replica) {
        return leaderLogEndOffset() - replica.logEndOffset();
    }

    /** Milliseconds between {@code timestampMs} (leader clock) and the answer; -1 when never. */
    public long agoMs(long timestampMs) {
        return timestampMs < 0 ? -1 : Math.max(0, nowMs - timestampMs);
    }

    /** The largest lag among the voters other than the leader; 0 with none. */
    public long maxFollowerLag() {
        long max = 0;
        for (Replica voter : voters) {
            if (voter.nodeId() != leaderId) {
                max = Math.max(max, lag(voter));
            }
        }
        return max;
    }

    /**
     * Milliseconds since the least recently caught-up follower voter was caught up; 0 with
     * no followers; -1 when some follower has never caught up (its lag time is unbounded).
     */
    public long maxFollowerLagTimeMs() {
        long max = 0;
        for (Replica voter : voters) {
            if (voter.nodeId() != leaderId) {
                long ago = agoMs(voter.lastCaughtUpTimestampMs());
                if (ago < 0) {
                    return -1;
                }
                max = Math.max(max, ago);
            }
        }
        return max;
    }
}

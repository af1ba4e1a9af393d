package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.BeginQuorumEpochPartitionRequest;
import io.metaquorum.protocol.BeginQuorumEpochPartitionResponse;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.BeginQuorumEpochTopicRequest;
import io.metaquorum.protocol.BeginQuorumEpochTopicResponse;
import io.metaquorum.protocol.EndQuorumEpochPartitionRequest;
import io.metaquorum.protocol.EndQuorumEpochPartitionResponse;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.EndQuorumEpochResponse;
import io.metaquorum.protocol.EndQuorumEpochTopicRequest;
import io.metaquorum.protocol.EndQuorumEpochTopicResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.LeaderIdAndEpoch;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VotePartitionResponse;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.protocol.VoteTopicRequest;
import io.metaquorum.protocol.VoteTopicResponse;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import java.util.Collection;
import java.util.List;

/**
 * Builds the election RPCs in the KIP-516 shape (cluster id, then topics -> topic id ->
 * partitions) and checks the scope of what arrives: the right cluster, exactly the
 * metadata topic by id, partition 0. Fetch-family builders are in {@link FetchRpcs}.
 */
public final class RaftRpcs {
    private static final Uuid TOPIC = TopicIds.METADATA_TOPIC_ID;
    private static final int PARTITION = TopicIds.METADATA_PARTITION;

    private RaftRpcs() {
    }

    /**
     * NONE when the request names this cluster, the metadata topic's id and partition 0,
     * each exactly once; otherwise the error to answer with.
     */
    public static ErrorCode checkScope(String expectedClusterId, String clusterId, int topicCount, Uuid topicId,
                                       int partitionCount, int partitionIndex) {
        if (!expectedClusterId.equals(clusterId)) {
            return ErrorCode.INCONSISTENT_CLUSTER_ID;
        }
        if (topicCount != 1 || partitionCount != 1) {
            return ErrorCode.INVALID_REQUEST;
        }
        if (!TOPIC.equals(topicId)) {
            return ErrorCode.INCONSISTENT_TOPIC_ID;
        }
        return partitionIndex == PARTITION ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    }

    public static ErrorCode checkScope(String clusterId, VoteRequest request) {
        VoteTopicRequest topic = request.getTopicsCount() > 0 ? request.getTopics(0) : VoteTopicRequest.getDefaultInstance();
        int partitions = topic.getPartitionsCount();
        return checkScope(clusterId, request.getClusterId(), request.getTopicsCount(), topic.getTopicId(), partitions,
                partitions > 0 ? topic.getPartitions(0).getPartitionIndex() : -1);
    }

    public static ErrorCode checkScope(String clusterId, BeginQuorumEpochRequest request) {
        BeginQuorumEpochTopicRequest topic = request.getTopicsCount() > 0 ? request.getTopics(0)
                : BeginQuorumEpochTopicRequest.getDefaultInstance();
        int partitions = topic.getPartitionsCount();
        return checkScope(clusterId, request.getClusterId(), request.getTopicsCount(), topic.getTopicId(), partitions,
                partitions > 0 ? topic.getPartitions(0).getPartitionIndex() : -1);
    }

    public static ErrorCode checkScope(String clusterId, EndQuorumEpochRequest request) {
        EndQuorumEpochTopicRequest topic = request.getTopicsCount() > 0 ? request.getTopics(0)
                : EndQuorumEpochTopicRequest.getDefaultInstance();
        int partitions = topic.getPartitionsCount();
        return checkScope(clusterId, request.getClusterId(), request.getTopicsCount(), topic.getTopicId(), partitions,
                partitions > 0 ? topic.getPartitions(0).getPartitionIndex() : -1);
    }

    public static LeaderIdAndEpoch leader(int leaderId, int epoch) {
        return LeaderIdAndEpoch.newBuilder().setLeaderId(leaderId).setLeaderEpoch(epoch).build();
    }

    public static VoteRequest voteRequest(String clusterId, int voterId, VotePartitionRequest partition) {
        return VoteRequest.newBuilder().setClusterId(clusterId).setVoterId(voterId)
                .addTopics(VoteTopicRequest.newBuilder().setTopicId(TOPIC).addPartitions(partition))
                .build();
    }

    public static VoteRequest voteRequest(String clusterId, int voterId, int epoch, int candidateId,
                                          int lastEpoch, long lastOffset, boolean preVote) {
        return voteRequest(clusterId, ReplicaKey.of(voterId), epoch, ReplicaKey.of(candidateId), lastEpoch,
                lastOffset, preVote);
    }

    /** A (pre-)vote request naming both the candidate and the voter asked by their directory ids (KIP-853). */
    public static VoteRequest voteRequest(String clusterId, ReplicaKey voter, int epoch, ReplicaKey candidate,
                                          int lastEpoch, long lastOffset, boolean preVote) {
        return voteRequest(clusterId, voter.id(), VotePartitionRequest.newBuilder()
                .setPartitionIndex(PARTITION).setReplicaEpoch(epoch).setReplicaId(candidate.id())
                .setReplicaDirectoryId(candidate.directoryId()).setVoterDirectoryId(voter.directoryId())
                .setLastOffsetEpoch(lastEpoch).setLastOffset(lastOffset).setPreVote(preVote).build());
    }

    /** The directory id a message carries, {@link TopicIds#ZERO} when it carries none. */
    public static Uuid directoryId(boolean present, Uuid id) {
        return present ? id : TopicIds.ZERO;
    }

    /**
     * Whether a request meant for the voter with {@code expected} reached it: a request that
     * names no directory id (a static voter set) reaches any.
     */
    public static boolean isAddressedTo(ReplicaKey local, Uuid expected) {
        return TopicIds.ZERO.equals(expected) || expected.equals(local.directoryId());
    }

    public static VoteResponse voteResponse(ErrorCode error, int leaderId, int epoch, boolean granted) {
        return VoteResponse.newBuilder().addTopics(VoteTopicResponse.newBuilder().setTopicId(TOPIC)
                .addPartitions(VotePartitionResponse.newBuilder().setPartitionIndex(PARTITION).setErrorCode(error)
                        .setLeaderId(leaderId).setLeaderEpoch(epoch).setVoteGranted(granted)))
                .build();
    }

    public static BeginQuorumEpochRequest beginQuorumEpochRequest(String clusterId, int voterId, int leaderId,
                                                                  int epoch) {
        return beginQuorumEpochRequest(clusterId, ReplicaKey.of(voterId), leaderId, epoch);
    }

    public static BeginQuorumEpochRequest beginQuorumEpochRequest(String clusterId, ReplicaKey voter, int leaderId,
                                                                  int epoch) {
        return BeginQuorumEpochRequest.newBuilder().setClusterId(clusterId).setVoterId(voter.id())
                .addTopics(BeginQuorumEpochTopicRequest.newBuilder().setTopicId(TOPIC)
                        .addPartitions(BeginQuorumEpochPartitionRequest.newBuilder().setPartitionIndex(PARTITION)
                                .setLeaderId(leaderId).setLeaderEpoch(epoch)
                                .setVoterDirectoryId(voter.directoryId())))
                .build();
    }

    public static BeginQuorumEpochResponse beginQuorumEpochResponse(ErrorCode error, int leaderId, int epoch) {
        return BeginQuorumEpochResponse.newBuilder().addTopics(BeginQuorumEpochTopicResponse.newBuilder()
                        .setTopicId(TOPIC).addPartitions(BeginQuorumEpochPartitionResponse.newBuilder()
                                .setPartitionIndex(PARTITION).setErrorCode(error).setLeaderId(leaderId)
                                .setLeaderEpoch(epoch)))
                .build();
    }

    public static EndQuorumEpochRequest endQuorumEpochRequest(String clusterId, int replicaId, int leaderId,
                                                              int epoch, List<Integer> successors) {
        return endQuorumEpochRequest(clusterId, replicaId, leaderId, epoch,
                successors.stream().map(ReplicaKey::of).toList());
    }

    /** {@code successors} most caught up first, named by id and, in KIP-853's field, with their directory ids. */
    public static EndQuorumEpochRequest endQuorumEpochRequest(String clusterId, int replicaId, int leaderId,
                                                              int epoch, Collection<ReplicaKey> successors) {
        EndQuorumEpochPartitionRequest.Builder partition = EndQuorumEpochPartitionRequest.newBuilder()
                .setPartitionIndex(PARTITION).setReplicaId(replicaId).setLeaderId(leaderId).setLeaderEpoch(epoch);
        for (ReplicaKey successor : successors) {
            partition.addPreferredSuccessors(successor.id()).addPreferredCandidates(successor.toMessage());
        }
        return EndQuorumEpochRequest.newBuilder().setClusterId(clusterId)
                .addTopics(EndQuorumEpochTopicRequest.newBuilder().setTopicId(TOPIC).addPartitions(partition))
                .build();
    }

    public static EndQuorumEpochResponse endQuorumEpochResponse(ErrorCode error, int leaderId, int epoch) {
        return EndQuorumEpochResponse.newBuilder().addTopics(EndQuorumEpochTopicResponse.newBuilder()
                        .setTopicId(TOPIC).addPartitions(EndQuorumEpochPartitionResponse.newBuilder()
                                .setPartitionIndex(PARTITION).setErrorCode(error).setLeaderId(leaderId)
                                .setLeaderEpoch(epoch)))
                .build();
    }

    /** The response of the right type for {@code request} carrying only a top-level error. */
    public static com.google.protobuf.Message topLevelError(com.google.protobuf.Message request, ErrorCode error) {
        if (request instanceof VoteRequest) {
            return VoteResponse.newBuilder().setErrorCode(error).build();
        }
        if (request instanceof BeginQuorumEpochRequest) {
            return BeginQuorumEpochResponse.newBuilder().setErrorCode(error).build();
        }
        if (request instanceof EndQuorumEpochRequest) {
            return EndQuorumEpochResponse.newBuilder().setErrorCode(error).build();
        }
        return FetchRpcs.topLevelError(request, error);
    }
}

package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchPartitionResponse;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotPartitionRequest;
import io.metaquorum.protocol.FetchSnapshotPartitionResponse;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.protocol.FetchSnapshotTopicRequest;
import io.metaquorum.protocol.FetchSnapshotTopicResponse;
import io.metaquorum.protocol.FetchTopicRequest;
import io.metaquorum.protocol.FetchTopicResponse;
import io.metaquorum.protocol.SnapshotId;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.Optional;

/** Builds and unwraps Fetch, FetchSnapshot and DescribeQuorum in the KIP-516 shape. */
public final class FetchRpcs {
    private FetchRpcs() {
    }

    public static ErrorCode checkScope(String clusterId, FetchRequest request) {
        FetchTopicRequest topic = request.getTopicsCount() > 0 ? request.getTopics(0) : FetchTopicRequest.getDefaultInstance();
        int partitions = topic.getPartitionsCount();
        return RaftRpcs.checkScope(clusterId, request.getClusterId(), request.getTopicsCount(), topic.getTopicId(),
                partitions, partitions > 0 ? topic.getPartitions(0).getPartitionIndex() : -1);
    }

    public static ErrorCode checkScope(String clusterId, FetchSnapshotRequest request) {
        FetchSnapshotTopicRequest topic = request.getTopicsCount() > 0 ? request.getTopics(0)
                : FetchSnapshotTopicRequest.getDefaultInstance();
        int partitions = topic.getPartitionsCount();
        return RaftRpcs.checkScope(clusterId, request.getClusterId(), request.getTopicsCount(), topic.getTopicId(),
                partitions, partitions > 0 ? topic.getPartitions(0).getPartitionIndex() : -1);
    }

    public static FetchRequest fetchRequest(String clusterId, int replicaId, int maxWaitMs, FetchPartitionRequest p) {
        return FetchRequest.newBuilder().setClusterId(clusterId).setReplicaId(replicaId).setMaxWaitMs(maxWaitMs)
                .addTopics(FetchTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID).addPartitions(p))
                .build();
    }

    public static FetchPartitionRequest partition(FetchRequest request) {
        return request.getTopics(0).getPartitions(0);
    }

    /** The fetcher as KIP-853 names it: its replica id and directory id. */
    public static ReplicaKey replicaKey(FetchRequest request) {
        FetchPartitionRequest p = partition(request);
        return new ReplicaKey(request.getReplicaId(),
                RaftRpcs.directoryId(p.hasReplicaDirectoryId(), p.getReplicaDirectoryId()));
    }

    public static FetchResponse fetchResponse(FetchPartitionResponse partition) {
        return FetchResponse.newBuilder().addTopics(FetchTopicResponse.newBuilder()
                .setTopicId(TopicIds.METADATA_TOPIC_ID).addPartitions(partition)).build();
    }

    /** The single partition of a well-formed response, or empty if the peer sent something else. */
    public static Optional<FetchPartitionResponse> partition(FetchResponse response) {
        if (response.getTopicsCount() != 1 || response.getTopics(0).getPartitionsCount() != 1
                || !TopicIds.METADATA_TOPIC_ID.equals(response.getTopics(0).getTopicId())) {
            return Optional.empty();
        }
        return Optional.of(response.getTopics(0).getPartitions(0));
    }

    public static FetchSnapshotRequest fetchSnapshotRequest(String clusterId, int replicaId, int maxBytes,
                                                            FetchSnapshotPartitionRequest partition) {
        return FetchSnapshotRequest.newBuilder().setClusterId(clusterId).setReplicaId(replicaId).setMaxBytes(maxBytes)
                .addTopics(FetchSnapshotTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(partition))
                .build();
    }

    public static FetchSnapshotResponse fetchSnapshotResponse(FetchSnapshotPartitionResponse partition) {
        return FetchSnapshotResponse.newBuilder().addTopics(FetchSnapshotTopicResponse.newBuilder()
                .setTopicId(TopicIds.METADATA_TOPIC_ID).addPartitions(partition)).build();
    }

    public static Optional<FetchSnapshotPartitionResponse> partition(FetchSnapshotResponse response) {
        if (response.getTopicsCount() != 1 || response.getTopics(0).getPartitionsCount() != 1
                || !TopicIds.METADATA_TOPIC_ID.equals(response.getTopics(0).getTopicId())) {
            return Optional.empty();
        }
        return Optional.of(response.getTopics(0).getPartitions(0));
    }

    public static DescribeQuorumResponse describeQuorumResponse(String clusterId,
                                                                DescribeQuorumPartitionResponse partition) {
        return DescribeQuorumResponse.newBuilder().setClusterId(clusterId)
                .addTopics(DescribeQuorumTopicResponse.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(partition))
                .build();
    }

    public static SnapshotId snapshotId(OffsetAndEpoch id) {
        return SnapshotId.newBuilder().setEndOffset(id.offset()).setEpoch(id.epoch()).build();
    }

    public static OffsetAndEpoch offsetAndEpoch(SnapshotId id) {
        return new OffsetAndEpoch(id.getEndOffset(), id.getEpoch());
    }

    static com.google.protobuf.Message topLevelError(com.google.protobuf.Message request, ErrorCode error) {
        if (request instanceof FetchRequest) {
            return FetchResponse.newBuilder().setErrorCode(error).build();
        }
        if (request instanceof FetchSnapshotRequest) {
            return FetchSnapshotResponse.newBuilder().setErrorCode(error).build();
        }
        if (request instanceof DescribeQuorumRequest) {
            return DescribeQuorumResponse.newBuilder().setErrorCode(error).build();
        }
        throw new IllegalArgumentException("not a raft request: " + request.getClass().getSimpleName());
    }

    static FetchSnapshotPartitionResponse.Builder snapshotPartition(ErrorCode error) {
        return FetchSnapshotPartitionResponse.newBuilder().setPartitionIndex(TopicIds.METADATA_PARTITION)
                .setErrorCode(error);
    }

    static FetchSnapshotPartitionRequest snapshotPartition(FetchSnapshotRequest request) {
        return request.getTopics(0).getPartitions(0);
    }
}

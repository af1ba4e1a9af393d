package io.metaquorum.raft.transport.grpc;

import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.BeginQuorumEpochPartitionRequest;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.EndQuorumEpochPartitionRequest;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchSnapshotPartitionRequest;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * Edge validation of inbound Raft requests: the shape only, never the state. A request that
 * fails here is answered at once with the error code and never reaches the core, so the
 * core may rely on every request it sees having exactly one topic with one partition, index
 * {@link TopicIds#METADATA_PARTITION}, and no negative ids, epochs, offsets or sizes (except
 * the documented {@code -1} "unknown" values).
 *
 * <p>What is left to the core: cluster and topic ids (INCONSISTENT_CLUSTER_ID /
 * INCONSISTENT_TOPIC_ID are answers about this cluster, not about the shape), epochs
 * against the current one, offsets against the log. Stateless and thread-safe.
 */
final class RequestShapeCheck {
    /** Why a request is refused at the edge. */
    record Rejection(ErrorCode errorCode, String reason) {
    }

    /** Kafka's "unknown" for a replica id (anonymous observer) and a leader epoch. */
    private static final int UNKNOWN = -1;
    private static final int PORT_MAX = 65_535;

    private RequestShapeCheck() {
    }

    static Optional<Rejection> check(VoteRequest request) {
        Optional<Rejection> shape = singlePartition(request.getTopicsCount(), () -> request.getTopics(0).hasTopicId(),
                () -> request.getTopics(0).getPartitionsCount(),
                () -> request.getTopics(0).getPartitions(0).getPartitionIndex());
        if (shape.isPresent()) {
            return shape;
        }
        VotePartitionRequest partition = request.getTopics(0).getPartitions(0);
        return firstOf(
                atLeast("replica_id", partition.getReplicaId(), 0),
                atLeast("replica_epoch", partition.getReplicaEpoch(), 0),
                atLeast("last_offset_epoch", partition.getLastOffsetEpoch(), 0),
                atLeast("last_offset", partition.getLastOffset(), 0));
    }

    static Optional<Rejection> check(BeginQuorumEpochRequest request) {
        Optional<Rejection> shape = singlePartition(request.getTopicsCount(), () -> request.getTopics(0).hasTopicId(),
                () -> request.getTopics(0).getPartitionsCount(),
                () -> request.getTopics(0).getPartitions(0).getPartitionIndex());
        if (shape.isPresent()) {
            return shape;
        }
        BeginQuorumEpochPartitionRequest partition = request.getTopics(0).getPartitions(0);
        return firstOf(
                atLeast("leader_id", partition.getLeaderId(), 0),
                atLeast("leader_epoch", partition.getLeaderEpoch(), 0));
    }

    static Optional<Rejection> check(EndQuorumEpochRequest request) {
        Optional<Rejection> shape = singlePartition(request.getTopicsCount(), () -> request.getTopics(0).hasTopicId(),
                () -> request.getTopics(0).getPartitionsCount(),
                () -> request.getTopics(0).getPartitions(0).getPartitionIndex());
        if (shape.isPresent()) {
            return shape;
        }
        EndQuorumEpochPartitionRequest partition = request.getTopics(0).getPartitions(0);
        Optional<Rejection> successor = partition.getPreferredSuccessorsList().stream()
                .filter(id -> id < 0).findFirst()
                .map(id -> invalid("preferred_successors must be >= 0, got " + id));
        return firstOf(
                atLeast("leader_id", partition.getLeaderId(), 0),
                atLeast("leader_epoch", partition.getLeaderEpoch(), 0),
                successor);
    }

    static Optional<Rejection> check(FetchRequest request) {
        Optional<Rejection> shape = singlePartition(request.getTopicsCount(), () -> request.getTopics(0).hasTopicId(),
                () -> request.getTopics(0).getPartitionsCount(),
                () -> request.getTopics(0).getPartitions(0).getPartitionIndex());
        if (shape.isPresent()) {
            return shape;
        }
        FetchPartitionRequest partition = request.getTopics(0).getPartitions(0);
        return firstOf(
                atLeast("replica_id", request.getReplicaId(), UNKNOWN),
                atLeast("max_wait_ms", request.getMaxWaitMs(), 0),
                atLeast("current_leader_epoch", partition.getCurrentLeaderEpoch(), UNKNOWN),
                atLeast("fetch_offset", partition.getFetchOffset(), 0),
                atLeast("last_fetched_epoch", partition.getLastFetchedEpoch(), 0),
                atLeast("log_start_offset", partition.getLogStartOffset(), UNKNOWN),
                atLeast("partition_max_bytes", partition.getPartitionMaxBytes(), 0));
    }

    static Optional<Rejection> check(FetchSnapshotRequest request) {
        Optional<Rejection> shape = singlePartition(request.getTopicsCount(), () -> request.getTopics(0).hasTopicId(),
                () -> request.getTopics(0).getPartitionsCount(),
                () -> request.getTopics(0).getPartitions(0).getPartitionIndex());
        if (shape.isPresent()) {
            return shape;
        }
        FetchSnapshotPartitionRequest partition = request.getTopics(0).getPartitions(0);
        if (!partition.hasSnapshotId()) {
            return Optional.of(invalid("snapshot_id is missing"));
        }
        return firstOf(
                atLeast("replica_id", request.getReplicaId(), UNKNOWN),
                atLeast("max_bytes", request.getMaxBytes(), 0),
                atLeast("current_leader_epoch", partition.getCurrentLeaderEpoch(), UNKNOWN),
                atLeast("snapshot_id.end_offset", partition.getSnapshotId().getEndOffset(), 0),
                atLeast("snapshot_id.epoch", partition.getSnapshotId().getEpoch(), 0),
                atLeast("position", partition.getPosition(), 0));
    }

    static Optional<Rejection> check(DescribeQuorumRequest request) {
        return singlePartition(request.getTopicsCount(), () -> request.getTopics(0).hasTopicId(),
                () -> request.getTopics(0).getPartitionsCount(),
                () -> request.getTopics(0).getPartitions(0).getPartitionIndex());
    }

    /** A voter to add: an id, a directory id (KIP-853 voters are named by both) and a listener to reach it. */
    static Optional<Rejection> check(AddVoterRequest request) {
        Optional<Rejection> voter = voter(request.getVoterId(), request.hasVoterDirectoryId()
                && !request.getVoterDirectoryId().equals(TopicIds.ZERO));
        if (voter.isPresent()) {
            return voter;
        }
        if (request.getTimeoutMs() < 0) {
            return Optional.of(invalid("timeout_ms must be >= 0, got " + request.getTimeoutMs()));
        }
        return listeners("the new voter", request.getListenersList());
    }

    /** A voter telling where it listens now: named by id and directory id, in an epoch, with a listener. */
    static Optional<Rejection> check(UpdateVoterRequest request) {
        Optional<Rejection> voter = voter(request.getVoterId(), request.hasVoterDirectoryId()
                && !request.getVoterDirectoryId().equals(TopicIds.ZERO));
        if (voter.isPresent()) {
            return voter;
        }
        return firstOf(
                atLeast("current_leader_epoch", request.getCurrentLeaderEpoch(), 0),
                listeners("the voter", request.getListenersList()));
    }

    /** At least one listener, each with a host and a port a peer can dial. */
    private static Optional<Rejection> listeners(String whose, List<VotersRecord.Endpoint> listeners) {
        if (listeners.isEmpty()) {
            return Optional.of(invalid(whose + " needs at least one listener"));
        }
        for (VotersRecord.Endpoint listener : listeners) {
            if (listener.getHost().isBlank() || listener.getPort() < 1 || listener.getPort() > PORT_MAX) {
                return Optional.of(invalid("listener " + listener.getName() + " needs a host and a port in 1.."
                        + PORT_MAX + ", got '" + listener.getHost() + "':" + listener.getPort()));
            }
        }
        return Optional.empty();
    }

    /** A voter to remove, named by its id and directory id. */
    static Optional<Rejection> check(RemoveVoterRequest request) {
        return voter(request.getVoterId(), request.hasVoterDirectoryId()
                && !request.getVoterDirectoryId().equals(TopicIds.ZERO));
    }

    private static Optional<Rejection> voter(int voterId, boolean hasDirectoryId) {
        if (voterId < 0) {
            return Optional.of(invalid("voter_id must be >= 0, got " + voterId));
        }
        if (!hasDirectoryId) {
            return Optional.of(invalid("voter_directory_id is missing: a voter is named by its node id and the "
                    + "directory id in its meta.properties"));
        }
        return Optional.empty();
    }

    /**
     * One topic with an id and one partition whose index is the metadata partition. Each
     * supplier is called only once the counts before it are known to be 1.
     */
    private static Optional<Rejection> singlePartition(int topicCount, BooleanSupplier hasTopicId,
                                                       IntSupplier partitionCount, IntSupplier partitionIndex) {
        if (topicCount != 1) {
            return Optional.of(invalid("expected exactly one topic, got " + topicCount));
        }
        if (!hasTopicId.getAsBoolean()) {
            return Optional.of(invalid("topic_id is missing"));
        }
        int partitions = partitionCount.getAsInt();
        if (partitions != 1) {
            return Optional.of(invalid("expected exactly one partition, got " + partitions));
        }
        int index = partitionIndex.getAsInt();
        if (index != TopicIds.METADATA_PARTITION) {
            return Optional.of(new Rejection(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    "partition_index must be " + TopicIds.METADATA_PARTITION + ", got " + index));
        }
        return Optional.empty();
    }

    private static Optional<Rejection> atLeast(String field, long value, long min) {
        return value >= min ? Optional.empty() : Optional.of(invalid(field + " must be >= " + min + ", got " + value));
    }

    @SafeVarargs
    private static Optional<Rejection> firstOf(Optional<Rejection>... checks) {
        for (Optional<Rejection> check : checks) {
            if (check.isPresent()) {
                return check;
            }
        }
        return Optional.empty();
    }

    private static Rejection invalid(String reason) {
        return new Rejection(ErrorCode.INVALID_REQUEST, reason);
    }
}

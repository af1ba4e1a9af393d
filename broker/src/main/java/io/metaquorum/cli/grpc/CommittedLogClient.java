package io.metaquorum.cli.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchPartitionResponse;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchSnapshotPartitionRequest;
import io.metaquorum.protocol.FetchSnapshotPartitionResponse;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotTopicRequest;
import io.metaquorum.protocol.FetchTopicRequest;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.SnapshotId;
import io.metaquorum.raft.TopicIds;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The leader's metadata log fetched the way a follower fetches it, as an anonymous observer
 * (replica id -1, KIP-595): Raft's Fetch for batches and FetchSnapshot for a snapshot's bytes.
 * The leader keeps no progress for an anonymous fetcher, so the tool leaves no trace in the
 * quorum. One instance holds one plaintext connection to one node; close it.
 */
public final class CommittedLogClient implements AutoCloseable {
    /** Replica id of an anonymous observer. */
    public static final int ANONYMOUS_REPLICA_ID = -1;
    private static final int RESPONSE_BYTES_MAX = 64 << 20;
    /** Bytes of batches asked per Fetch. */
    static final int FETCH_BYTES_MAX = 8 << 20;
    /** Bytes of a snapshot asked per FetchSnapshot. */
    static final int SNAPSHOT_CHUNK_BYTES_MAX = 8 << 20;

    private final ManagedChannel channel;
    private final long timeoutMs;

    public CommittedLogClient(InetSocketAddress address, long timeoutMs, ChannelCredentials credentials) {
        this.channel = NettyChannelBuilder.forAddress(address, credentials).disableRetry()
                .maxInboundMessageSize(RESPONSE_BYTES_MAX).build();
        this.timeoutMs = timeoutMs;
    }

    /** Fetches from {@code offset} (the log's batches from there, or the snapshot id to get first). */
    public FetchPartitionResponse fetch(String clusterId, int leaderEpoch, long offset, int lastFetchedEpoch) {
        FetchRequest request = FetchRequest.newBuilder().setClusterId(clusterId).setReplicaId(ANONYMOUS_REPLICA_ID)
                .setMaxWaitMs(0).addTopics(FetchTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(FetchPartitionRequest.newBuilder().setPartitionIndex(TopicIds.METADATA_PARTITION)
                                .setCurrentLeaderEpoch(leaderEpoch).setFetchOffset(offset)
                                .setLastFetchedEpoch(lastFetchedEpoch).setLogStartOffset(-1)
                                .setPartitionMaxBytes(FETCH_BYTES_MAX)))
                .build();
        var response = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS)
                .fetch(request);
        if (response.getTopicsCount() != 1 || response.getTopics(0).getPartitionsCount() != 1) {
            throw new IllegalStateException("Fetch answered " + response.getErrorCode());
        }
        return response.getTopics(0).getPartitions(0);
    }

    /** One chunk of snapshot {@code id} from {@code position}. */
    public FetchSnapshotPartitionResponse fetchSnapshot(String clusterId, int leaderEpoch, SnapshotId id,
                                                        long position) {
        FetchSnapshotRequest request = FetchSnapshotRequest.newBuilder().setClusterId(clusterId)
                .setReplicaId(ANONYMOUS_REPLICA_ID).setMaxBytes(SNAPSHOT_CHUNK_BYTES_MAX)
                .addTopics(FetchSnapshotTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(FetchSnapshotPartitionRequest.newBuilder()
                                .setPartitionIndex(TopicIds.METADATA_PARTITION).setCurrentLeaderEpoch(leaderEpoch)
                                .setSnapshotId(id).setPosition(position)))
                .build();
        var response = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS)
                .fetchSnapshot(request);
        if (response.getTopicsCount() != 1 || response.getTopics(0).getPartitionsCount() != 1) {
            throw new IllegalStateException("FetchSnapshot answered " + response.getErrorCode());
        }
        return response.getTopics(0).getPartitions(0);
    }

    @Override
    public void close() {
        channel.shutdownNow();
    }
}

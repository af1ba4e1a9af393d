package io.metaquorum.raft.transport.grpc;

import com.google.protobuf.Message;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.protocol.BeginQuorumEpochPartitionRequest;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.BeginQuorumEpochTopicRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.EndQuorumEpochPartitionRequest;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.EndQuorumEpochResponse;
import io.metaquorum.protocol.EndQuorumEpochTopicRequest;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotPartitionRequest;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.protocol.FetchTopicRequest;
import io.metaquorum.protocol.FetchSnapshotTopicRequest;
import io.metaquorum.protocol.SnapshotId;
import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.protocol.VoteTopicRequest;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.message.RaftRequest;

/** Well-formed Raft requests and matching responses, sent by replica {@link #SENDER}. */
final class RaftPayloads {
    static final String CLUSTER_ID = "test-cluster";
    static final int SENDER = 1;

    /** One RPC: a valid request, a response to it and the source id the server must report. */
    record Exchange(String name, Message request, Message response, int expectedSourceId) {
        @Override
        public String toString() {
            return name;
        }
    }

    private RaftPayloads() {
    }

    static Exchange[] allExchanges() {
        return new Exchange[] {
            new Exchange("Vote", vote(), VoteResponse.newBuilder().setErrorCode(
                    io.metaquorum.protocol.ErrorCode.NONE).build(), SENDER),
            new Exchange("BeginQuorumEpoch", beginQuorumEpoch(), BeginQuorumEpochResponse.getDefaultInstance(), SENDER),
            new Exchange("EndQuorumEpoch", endQuorumEpoch(), EndQuorumEpochResponse.getDefaultInstance(), SENDER),
            new Exchange("Fetch", fetch(0, 0), FetchResponse.getDefaultInstance(), SENDER),
            new Exchange("FetchSnapshot", fetchSnapshot(), FetchSnapshotResponse.getDefaultInstance(), SENDER),
            new Exchange("DescribeQuorum", QuorumClient.metadataQuorumRequest(),
                    DescribeQuorumResponse.newBuilder().setClusterId(CLUSTER_ID).build(), RaftRequest.CLIENT),
            new Exchange("UpdateVoter", updateVoter(), UpdateVoterResponse.getDefaultInstance(), SENDER),
        };
    }

    /** The sender tells where it listens now. */
    static UpdateVoterRequest updateVoter() {
        return UpdateVoterRequest.newBuilder().setClusterId(CLUSTER_ID).setCurrentLeaderEpoch(3).setVoterId(SENDER)
                .setVoterDirectoryId(TopicIds.uuid(0x5EED, SENDER)).addListeners(VotersRecord.Endpoint.newBuilder()
                        .setName("CONTROLLER").setHost("127.0.0.1").setPort(19091)).build();
    }

    static VoteRequest vote() {
        return VoteRequest.newBuilder().setClusterId(CLUSTER_ID).setVoterId(2)
                .addTopics(VoteTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(VotePartitionRequest.newBuilder().setPartitionIndex(0).setReplicaEpoch(3)
                                .setReplicaId(SENDER).setLastOffsetEpoch(2).setLastOffset(10).setPreVote(true)))
                .build();
    }

    static BeginQuorumEpochRequest beginQuorumEpoch() {
        return BeginQuorumEpochRequest.newBuilder().setClusterId(CLUSTER_ID).setVoterId(2)
                .addTopics(BeginQuorumEpochTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(BeginQuorumEpochPartitionRequest.newBuilder().setLeaderId(SENDER)
                                .setLeaderEpoch(3)))
                .build();
    }

    static EndQuorumEpochRequest endQuorumEpoch() {
        return EndQuorumEpochRequest.newBuilder().setClusterId(CLUSTER_ID)
                .addTopics(EndQuorumEpochTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(EndQuorumEpochPartitionRequest.newBuilder().setReplicaId(SENDER)
                                .setLeaderId(SENDER).setLeaderEpoch(3).addPreferredSuccessors(2)))
                .build();
    }

    static FetchRequest fetch(long fetchOffset, int maxWaitMs) {
        return FetchRequest.newBuilder().setClusterId(CLUSTER_ID).setReplicaId(SENDER).setMaxWaitMs(maxWaitMs)
                .addTopics(FetchTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(FetchPartitionRequest.newBuilder().setCurrentLeaderEpoch(3)
                                .setFetchOffset(fetchOffset).setLastFetchedEpoch(0).setLogStartOffset(0)
                                .setPartitionMaxBytes(1 << 20)))
                .build();
    }

    static FetchSnapshotRequest fetchSnapshot() {
        return FetchSnapshotRequest.newBuilder().setClusterId(CLUSTER_ID).setReplicaId(SENDER).setMaxBytes(1 << 20)
                .addTopics(FetchSnapshotTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(FetchSnapshotPartitionRequest.newBuilder().setCurrentLeaderEpoch(3)
                                .setSnapshotId(SnapshotId.newBuilder().setEndOffset(100).setEpoch(2))
                                .setPosition(0)))
                .build();
    }
}

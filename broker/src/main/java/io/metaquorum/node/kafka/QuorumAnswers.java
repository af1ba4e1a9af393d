package io.metaquorum.node.kafka;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.NodeEndpoint;
import io.metaquorum.protocol.ReplicaState;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeQuorumResponseData;
import org.apache.kafka.common.message.DescribeQuorumResponseData.Listener;
import org.apache.kafka.common.message.DescribeQuorumResponseData.ListenerCollection;
import org.apache.kafka.common.message.DescribeQuorumResponseData.Node;
import org.apache.kafka.common.message.DescribeQuorumResponseData.NodeCollection;
import org.apache.kafka.common.message.DescribeQuorumResponseData.PartitionData;
import org.apache.kafka.common.message.DescribeQuorumResponseData.TopicData;

/**
 * Raft's DescribeQuorum answer (raft.proto) as Kafka's, at the request's version: the
 * metadata topic by Kafka's name (Kafka's client checks it) and partition 0; voters and
 * observers with their log end offsets and, from v1, their last fetch and caught-up times
 * (the leader's wall clock, as Kafka's); from v2 each replica's directory id and each voter's
 * listener, under the name of the listener raft runs on. Our pending voter change has no
 * place in Kafka's answer and is left out.
 */
final class QuorumAnswers {
    static final short TIMESTAMPS_VERSION_MIN = 1;
    static final short NODES_VERSION_MIN = 2;
    private static final int PORT_MAX = 65_535;

    private QuorumAnswers() {
    }

    static DescribeQuorumResponseData toKafka(DescribeQuorumResponse answer, String listenerName, short version) {
        DescribeQuorumResponseData out = new DescribeQuorumResponseData();
        if (answer.getErrorCode() != ErrorCode.NONE || answer.getTopicsCount() != 1
                || answer.getTopics(0).getPartitionsCount() != 1) {
            ErrorCode code = answer.getErrorCode() == ErrorCode.NONE ? ErrorCode.UNKNOWN_SERVER_ERROR
                    : answer.getErrorCode();
            return failed(code, answer.getErrorCode() == ErrorCode.NONE
                    ? "The quorum leader's answer held no metadata partition."
                    : "The quorum leader answered " + answer.getErrorCode() + ".", version);
        }
        DescribeQuorumPartitionResponse partition = answer.getTopics(0).getPartitions(0);
        PartitionData data = new PartitionData().setPartitionIndex(partition.getPartitionIndex())
                .setErrorCode(WireErrors.code(partition.getErrorCode())).setLeaderId(partition.getLeaderId())
                .setLeaderEpoch(partition.getLeaderEpoch()).setHighWatermark(partition.getHighWatermark())
                .setCurrentVoters(replicas(partition.getCurrentVotersList(), version))
                .setObservers(replicas(partition.getObserversList(), version));
        if (version >= NODES_VERSION_MIN) {
            data.setErrorMessage(WireErrors.message(partition.getErrorCode(), ""));
            out.setErrorMessage(null).setNodes(nodes(answer.getNodesList(), listenerName));
        }
        return out.setErrorCode(WireErrors.code(ErrorCode.NONE)).setTopics(List.of(new TopicData()
                .setTopicName(Topic.CLUSTER_METADATA_TOPIC_NAME).setPartitions(List.of(data))));
    }

    /** A request-level error: no topics. */
    static DescribeQuorumResponseData failed(ErrorCode code, String message, short version) {
        DescribeQuorumResponseData out = new DescribeQuorumResponseData().setErrorCode(WireErrors.code(code));
        if (version >= NODES_VERSION_MIN) {
            out.setErrorMessage(WireErrors.message(code, message));
        }
        return out;
    }

    private static List<DescribeQuorumResponseData.ReplicaState> replicas(List<ReplicaState> states, short version) {
        List<DescribeQuorumResponseData.ReplicaState> out = new ArrayList<>(states.size());
        for (ReplicaState s : states) {
            DescribeQuorumResponseData.ReplicaState replica = new DescribeQuorumResponseData.ReplicaState()
                    .setReplicaId(s.getReplicaId()).setLogEndOffset(s.getLogEndOffset());
            if (version >= TIMESTAMPS_VERSION_MIN) {
                replica.setLastFetchTimestamp(s.getLastFetchTimestampMs())
                        .setLastCaughtUpTimestamp(s.getLastCaughtUpTimestampMs());
            }
            if (version >= NODES_VERSION_MIN) {
                replica.setReplicaDirectoryId(new Uuid(s.getReplicaDirectoryId().getMostSignificantBits(),
                        s.getReplicaDirectoryId().getLeastSignificantBits()));
            }
            out.add(replica);
        }
        return out;
    }

    /** One node per id (the first endpoint given for it), in id order; unusable ports are left out. */
    private static NodeCollection nodes(List<NodeEndpoint> endpoints, String listenerName) {
        TreeMap<Integer, NodeEndpoint> byId = new TreeMap<>();
        for (NodeEndpoint e : endpoints) {
            if (e.getPort() > 0 && e.getPort() <= PORT_MAX && !e.getHost().isEmpty()) {
                byId.putIfAbsent(e.getNodeId(), e);
            }
        }
        NodeCollection out = new NodeCollection(byId.size());
        byId.values().forEach(e -> {
            ListenerCollection listeners = new ListenerCollection(1);
            listeners.add(new Listener().setName(listenerName).setHost(e.getHost()).setPort(e.getPort()));
            out.add(new Node().setNodeId(e.getNodeId()).setListeners(listeners));
        });
        return out;
    }
}

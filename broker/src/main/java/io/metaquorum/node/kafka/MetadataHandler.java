package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.ClusterMetadata;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.TopicRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;

/**
 * Kafka's Metadata, the first thing every client asks: the unfenced brokers reachable on the
 * caller's listener, the cluster id, a controller among those brokers
 * ({@link ListenerBrokers#controllerId}), and the topics asked for (all: a null list, or an
 * empty one in version 0; by name; or by id from version 12), from one committed image.
 *
 * <p>Topics are authorized as DescribeTopics is: a listing of all leaves out silently what the
 * caller may not DESCRIBE; a named topic it may not DESCRIBE is TOPIC_AUTHORIZATION_FAILED
 * whether or not it exists. Topics are never created here: an unknown name is answered as Kafka
 * answers it with automatic creation off, UNKNOWN_TOPIC_OR_PARTITION, or INVALID_TOPIC_EXCEPTION
 * for a name no topic could have. A topic's authorized operations, when asked for (version 8
 * on), are Kafka's ({@link AuthorizedOperations#ofTopic}), and so are the cluster's in versions
 * 8 to 10 (later, DescribeCluster answers them).
 */
final class MetadataHandler implements KafkaApiHandler {
    /** The version that first asks for topics by id; 10 and 11 carry the field but may not use it. */
    private static final short TOPIC_IDS_VERSION = 12;
    /** The version that first asks for each topic's authorized operations. */
    private static final short TOPIC_OPERATIONS_VERSION = 8;
    /** The last version that asks for the cluster's authorized operations (DescribeCluster took it over). */
    private static final short CLUSTER_OPERATIONS_VERSION_MAX = 10;

    private final AdminRequests admin;
    private final int nodeId;

    MetadataHandler(AdminRequests admin, int nodeId) {
        this.admin = admin;
        this.nodeId = nodeId;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        MetadataRequest metadata = (MetadataRequest) request;
        short version = metadata.version();
        Optional<String> refused = refusedTopicIds(metadata.data(), version);
        if (refused.isPresent()) {
            reply.accept(metadata.getErrorResponse(new InvalidRequestException(refused.get())));
            return;
        }
        boolean byId = !metadata.isAllTopics() && !askedIds(metadata.data()).isEmpty();
        Optional<DescribeTopicsRequest> asked = asked(metadata, byId);
        ClusterMetadata read = admin.describeMetadata(asked, call.origin());
        List<ListenerBroker> brokers = ListenerBrokers.on(read.cluster(), call.listenerName(), false);
        MetadataResponseData out = new MetadataResponseData().setClusterId(read.cluster().getClusterId())
                .setControllerId(ListenerBrokers.controllerId(brokers, nodeId));
        for (ListenerBroker broker : brokers) {
            out.brokers().add(new MetadataResponseBroker().setNodeId(broker.id()).setHost(broker.host())
                    .setPort(broker.port()).setRack(broker.rack()));
        }
        ListenerPartitions partitions = new ListenerPartitions(read.cluster(), call.listenerName());
        DescribeTopicsResponse topics = read.topics();
        ErrorCode failed = topics.getHeader().getErrorCode();
        if (failed != ErrorCode.NONE) {
            if (version >= 13) {
                out.setErrorCode(WireErrors.code(failed));
            }
            asked.ifPresent(a -> a.getTopicsList().forEach(ref -> out.topics().add(failedTopic(ref, failed))));
        } else {
            for (DescribedTopic topic : topics.getTopicsList()) {
                out.topics().add(topic(topic, partitions, version, byId));
            }
        }
        if (version >= TOPIC_OPERATIONS_VERSION && version <= CLUSTER_OPERATIONS_VERSION_MAX
                && metadata.data().includeClusterAuthorizedOperations()) {
            out.setClusterAuthorizedOperations(AuthorizedOperations.bitField(admin.authorizedClusterOperations(
                    call.origin())));
        }
        if (version >= TOPIC_OPERATIONS_VERSION && metadata.data().includeTopicAuthorizedOperations()) {
            out.topics().forEach(t -> t.setTopicAuthorizedOperations(AuthorizedOperations.ofTopic(admin,
                    call.origin(), t.name(), t.errorCode())));
        }
        reply.accept(new MetadataResponse(out, version));
    }

    /** Versions 10 and 11 carry a topic id and a nullable name, but Kafka refuses either in use. */
    private static Optional<String> refusedTopicIds(MetadataRequestData data, short version) {
        if (version >= TOPIC_IDS_VERSION || data.topics() == null) {
            return Optional.empty();
        }
        for (MetadataRequestData.MetadataRequestTopic topic : data.topics()) {
            if (topic.name() == null) {
                return Optional.of("Metadata v" + version + " must name every topic; ids are asked from v12.");
            }
            if (!topic.topicId().equals(Uuid.ZERO_UUID)) {
                return Optional.of("Metadata v" + version + " cannot ask for topics by id; ids are asked from v12.");
            }
        }
        return Optional.empty();
    }

    private static Set<Uuid> askedIds(MetadataRequestData data) {
        Set<Uuid> ids = new LinkedHashSet<>();
        for (MetadataRequestData.MetadataRequestTopic topic : data.topics()) {
            if (!topic.topicId().equals(Uuid.ZERO_UUID)) {
                ids.add(topic.topicId());
            }
        }
        return ids;
    }

    /**
     * Every topic (a describe with no names), none (absent: an empty list from version 1), or
     * each distinct one named; when any id is given, the ids alone, as Kafka reads them.
     */
    private static Optional<DescribeTopicsRequest> asked(MetadataRequest request, boolean byId) {
        if (request.isAllTopics()) {
            return Optional.of(DescribeTopicsRequest.getDefaultInstance());
        }
        List<TopicRef> refs = new ArrayList<>();
        if (byId) {
            for (Uuid id : askedIds(request.data())) {
                refs.add(TopicRef.newBuilder().setTopicId(WireValues.uuid(id)).build());
            }
        } else {
            Set<String> names = new LinkedHashSet<>();
            for (MetadataRequestData.MetadataRequestTopic topic : request.data().topics()) {
                if (topic.name() != null && names.add(topic.name())) {
                    refs.add(TopicRef.newBuilder().setName(topic.name()).build());
                }
            }
        }
        return refs.isEmpty() ? Optional.empty()
                : Optional.of(DescribeTopicsRequest.newBuilder().addAllTopics(refs).build());
    }

    private static MetadataResponseTopic topic(DescribedTopic topic, ListenerPartitions partitions, short version,
                                               boolean byId) {
        short error = WireErrors.code(topic.getErrorCode());
        if (topic.getErrorCode() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION && !Topic.isValid(topic.getName())) {
            error = Errors.INVALID_TOPIC_EXCEPTION.code();
        }
        MetadataResponseTopic out = new MetadataResponseTopic().setErrorCode(error)
                .setName(byId ? WireValues.name(topic.getName()) : topic.getName())
                .setTopicId(WireValues.uuid(topic.getTopicId())).setIsInternal(false);
        for (DescribedPartition p : topic.getPartitionsList()) {
            PartitionState state = partitions.state(p, version == 0, version >= 6);
            out.partitions().add(new MetadataResponsePartition().setErrorCode(state.errorCode())
                    .setPartitionIndex(state.partitionIndex()).setLeaderId(state.leaderId())
                    .setLeaderEpoch(state.leaderEpoch()).setReplicaNodes(state.replicas()).setIsrNodes(state.isr())
                    .setOfflineReplicas(state.offline()));
        }
        return out;
    }

    private static MetadataResponseTopic failedTopic(TopicRef ref, ErrorCode error) {
        return new MetadataResponseTopic().setErrorCode(WireErrors.code(error))
                .setName(ref.hasName() ? ref.getName() : null)
                .setTopicId(ref.hasTopicId() ? WireValues.uuid(ref.getTopicId()) : Uuid.ZERO_UUID);
    }
}

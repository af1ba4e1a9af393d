package io.metaquorum.node.admin;

import io.metaquorum.metadata.authorizer.AscendingDecisions;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * ListTopics, DescribeTopics and DescribeCluster answered from one committed image; every
 * answer says the offset it reflects. Topics are listed sorted by name, partitions by index.
 * The image's name index is walked as it is: nothing of the image is copied or sorted per
 * request, only what is sent is built. A paged describe of every topic is
 * {@link DescribePages}'.
 */
final class TopicReadsConverter {
    private TopicReadsConverter() {
    }

    /** Every topic the caller may DESCRIBE; the others are left out silently. */
    static ListTopicsResponse list(RequestAccess rights, int controllerId) {
        MetadataImage image = rights.image();
        ListTopicsResponse.Builder out = ListTopicsResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset()));
        AscendingDecisions listed = rights.topicListing();
        for (Iterator<TopicImage> topics = image.topics().topicsFrom(""); topics.hasNext(); ) {
            TopicImage topic = topics.next();
            if (!listed.allows(topic.name())) {
                continue;
            }
            out.addTopics(ListedTopic.newBuilder().setName(topic.name()).setTopicId(topic.id().toUuid()));
        }
        return out.build();
    }

    /**
     * Every topic the caller may DESCRIBE (the others left out silently), or the named ones: a
     * name the caller may not DESCRIBE answers TOPIC_AUTHORIZATION_FAILED with the id zeroed
     * whether or not the topic exists; an id of a topic it may not DESCRIBE, the same with the
     * id as asked.
     */
    static DescribeTopicsResponse describe(DescribeTopicsRequest request, RequestAccess rights, int controllerId) {
        if (DescribePages.isPaged(request)) {
            return DescribePages.page(request, rights, controllerId);
        }
        return describe(request, rights, controllerId, true);
    }

    /**
     * As {@link #describe}, unpaged; {@code withConfigs} false leaves every topic's configs out
     * (Kafka's Metadata carries none, and the catalogue of every topic would be most of it).
     */
    static DescribeTopicsResponse describe(DescribeTopicsRequest request, RequestAccess rights, int controllerId,
                                           boolean withConfigs) {
        MetadataImage image = rights.image();
        DescribeTopicsResponse.Builder out = DescribeTopicsResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset()));
        if (request.getTopicsCount() == 0) {
            AscendingDecisions listed = rights.topicListing();
            for (Iterator<TopicImage> topics = image.topics().topicsFrom(""); topics.hasNext(); ) {
                TopicImage topic = topics.next();
                if (listed.allows(topic.name())) {
                    out.addTopics(described(topic, image, withConfigs));
                }
            }
            return out.build();
        }
        for (TopicRef ref : request.getTopicsList()) {
            if (ref.hasName()) {
                TopicImage topic = image.topics().topic(ref.getName());
                if (!rights.allowsTopic(AclOperation.DESCRIBE, ref.getName())) {
                    out.addTopics(unknown(ref.getName(), TopicIds.ZERO, ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            AuthorizedWrites.TOPIC_DENIED));
                } else {
                    out.addTopics(topic != null ? described(topic, image, withConfigs) : unknown(ref.getName(), TopicIds.ZERO,
                            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + ref.getName()
                                    + "' does not exist."));
                }
            } else {
                TopicImage topic = image.topics().topic(UuidKey.of(ref.getTopicId()));
                if (topic == null) {
                    out.addTopics(unknown("", ref.getTopicId(), ErrorCode.UNKNOWN_TOPIC_ID,
                            "No topic has the id " + TopicIds.toBase64(ref.getTopicId()) + "."));
                } else if (!rights.allowsTopic(AclOperation.DESCRIBE, topic.name())) {
                    out.addTopics(unknown("", ref.getTopicId(), ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            AuthorizedWrites.TOPIC_DENIED));
                } else {
                    out.addTopics(described(topic, image, withConfigs));
                }
            }
        }
        return out.build();
    }

    private static DescribedTopic unknown(String name, Uuid id, ErrorCode code,
                                          String message) {
        return DescribedTopic.newBuilder().setName(name).setTopicId(id).setErrorCode(code).setErrorMessage(message)
                .build();
    }

    private static DescribedTopic described(TopicImage topic, MetadataImage image, boolean withConfigs) {
        if (!withConfigs) {
            return partitions(topic, image, 0, topic.partitionCount()).build();
        }
        return described(topic, image, 0, topic.partitionCount(), true);
    }

    /**
     * The topic with its partitions {@code fromIndex} (inclusive) to {@code toIndex}
     * (exclusive) and its configs: every config with {@code withDefaults}, else only those set
     * on it (DYNAMIC_TOPIC_CONFIG).
     */
    static DescribedTopic described(TopicImage topic, MetadataImage image, int fromIndex, int toIndex,
                                    boolean withDefaults) {
        DescribedTopic.Builder out = partitions(topic, image, fromIndex, toIndex);
        Map<String, String> set = image.configs().configs(ConfigResource.topic(topic.name()));
        out.addAllConfigs(withDefaults ? ConfigsConverter.topicConfigs(set, List.of())
                : ConfigsConverter.setTopicConfigs(set));
        return out.build();
    }

    /** The topic with its partitions {@code fromIndex} (inclusive) to {@code toIndex} (exclusive), no configs. */
    private static DescribedTopic.Builder partitions(TopicImage topic, MetadataImage image, int fromIndex,
                                                     int toIndex) {
        DescribedTopic.Builder out = DescribedTopic.newBuilder().setName(topic.name()).setTopicId(topic.id().toUuid());
        for (int i = fromIndex; i < toIndex; i++) {
            PartitionRegistration p = topic.partition(i);
            DescribedPartition.Builder partition = DescribedPartition.newBuilder().setPartitionIndex(i)
                    .setLeaderId(p.leader()).setLeaderEpoch(p.leaderEpoch());
            for (int replica : p.replicas()) {
                partition.addReplicas(replica);
                BrokerRegistration broker = image.cluster().broker(replica);
                if (broker == null || broker.fenced()) {
                    partition.addOfflineReplicas(replica);
                }
            }
            for (int inSync : p.isr()) {
                partition.addIsr(inSync);
            }
            out.addPartitions(partition);
        }
        return out;
    }

    static DescribeClusterResponse cluster(MetadataImage image, String clusterId, int controllerId) {
        DescribeClusterResponse.Builder out = DescribeClusterResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset())).setClusterId(clusterId);
        for (BrokerRegistration broker : image.cluster().sortedById()) {
            DescribedBroker.Builder b = DescribedBroker.newBuilder().setBrokerId(broker.id()).setRack(broker.rack())
                    .setFenced(broker.fenced()).setBrokerEpoch(broker.epoch()).addAllEndpoints(broker.endpoints());
            if (!broker.endpoints().isEmpty()) {
                BrokerEndpoint first = broker.endpoints().get(0);
                b.setHost(first.getHost()).setPort(first.getPort());
            }
            out.addBrokers(b);
        }
        return out.build();
    }

    /** The partitions whose leader is {@code brokerId}. */
    static int leaderships(MetadataImage image, int brokerId) {
        int count = 0;
        for (TopicImage topic : image.topics().byId().values()) {
            for (int i = 0; i < topic.partitionCount(); i++) {
                if (topic.partition(i).leader() == brokerId) {
                    count++;
                }
            }
        }
        return count;
    }
}

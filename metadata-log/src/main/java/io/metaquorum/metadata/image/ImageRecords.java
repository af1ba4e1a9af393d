package io.metaquorum.metadata.image;

import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.FeatureLevelRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.TopicRecord;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Writes each part of an image as the records that rebuild it, in sorted order. */
final class ImageRecords {
    private ImageRecords() {
    }

    static void features(FeaturesImage features, List<MetadataRecord> out) {
        for (Map.Entry<String, Integer> feature : features.levels().entrySet()) {
            out.add(MetadataRecord.newBuilder().setFeatureLevel(FeatureLevelRecord.newBuilder()
                    .setName(feature.getKey()).setFeatureLevel(feature.getValue())).build());
        }
    }

    static void brokers(ClusterImage cluster, List<MetadataRecord> out) {
        for (BrokerRegistration broker : cluster.sortedById()) {
            out.add(MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder()
                    .setBrokerId(broker.id()).setIncarnationId(broker.incarnationId()).setBrokerEpoch(broker.epoch())
                    .addAllEndpoints(broker.endpoints()).setRack(broker.rack()).setFenced(broker.fenced())).build());
        }
    }

    static void topics(TopicsImage topics, List<MetadataRecord> out) {
        for (TopicImage topic : topics.sortedByName()) {
            out.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(topic.name())
                    .setTopicId(topic.id().toUuid())).build());
            for (int index = 0; index < topic.partitionCount(); index++) {
                out.add(MetadataRecord.newBuilder().setPartition(partition(topic, index)).build());
            }
        }
    }

    static PartitionRecord partition(TopicImage topic, int index) {
        PartitionRegistration p = topic.partition(index);
        return PartitionRecord.newBuilder().setTopicId(topic.id().toUuid()).setPartition(index)
                .addAllReplicas(Arrays.stream(p.replicas()).boxed().toList())
                .addAllIsr(Arrays.stream(p.isr()).boxed().toList())
                .setLeader(p.leader()).setLeaderEpoch(p.leaderEpoch()).setPartitionEpoch(p.partitionEpoch()).build();
    }

    static void configs(ConfigurationsImage configs, List<MetadataRecord> out) {
        for (ConfigResource resource : configs.sortedResources()) {
            for (Map.Entry<String, String> config : configs.configs(resource).entrySet()) {
                out.add(MetadataRecord.newBuilder().setConfig(ConfigRecord.newBuilder()
                        .setResourceType(resource.type()).setResourceName(resource.name())
                        .setName(config.getKey()).setValue(config.getValue())).build());
            }
        }
    }

    static void acls(AclsImage acls, List<MetadataRecord> out) {
        for (AccessControlEntryRecord entry : acls.sortedById()) {
            out.add(MetadataRecord.newBuilder().setAccessControlEntry(entry).build());
        }
    }
}

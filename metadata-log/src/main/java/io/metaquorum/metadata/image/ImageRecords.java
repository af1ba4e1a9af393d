package io.metaquorum.metadata.image;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.FeatureLevelRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.UserScramCredentialRecord;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;

/** Writes each part of an image as the records that rebuild it, in sorted order, one at a time. */
final class ImageRecords {
    private ImageRecords() {
    }

    static void features(FeaturesImage features, Consumer<MetadataRecord> out) {
        for (Map.Entry<String, Integer> feature : features.levels().entrySet()) {
            out.accept(MetadataRecord.newBuilder().setFeatureLevel(FeatureLevelRecord.newBuilder()
                    .setName(feature.getKey()).setFeatureLevel(feature.getValue())).build());
        }
    }

    static void brokers(ClusterImage cluster, Consumer<MetadataRecord> out) {
        for (BrokerRegistration broker : cluster.sortedById()) {
            out.accept(MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder()
                    .setBrokerId(broker.id()).setIncarnationId(broker.incarnationId()).setBrokerEpoch(broker.epoch())
                    .addAllEndpoints(broker.endpoints()).setRack(broker.rack()).setFenced(broker.fenced())).build());
        }
    }

    static void topics(TopicsImage topics, Consumer<MetadataRecord> out) {
        for (Iterator<TopicImage> inNameOrder = topics.topicsFrom(""); inNameOrder.hasNext(); ) {
            TopicImage topic = inNameOrder.next();
            out.accept(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(topic.name())
                    .setTopicId(topic.id().toUuid())).build());
            for (int index = 0; index < topic.partitionCount(); index++) {
                out.accept(MetadataRecord.newBuilder().setPartition(partition(topic, index)).build());
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

    static void configs(ConfigurationsImage configs, Consumer<MetadataRecord> out) {
        for (ConfigResource resource : configs.sortedResources()) {
            for (Map.Entry<String, String> config : configs.configs(resource).entrySet()) {
                out.accept(MetadataRecord.newBuilder().setConfig(ConfigRecord.newBuilder()
                        .setResourceType(resource.type()).setResourceName(resource.name())
                        .setName(config.getKey()).setValue(config.getValue())).build());
            }
        }
    }

    static void acls(AclsImage acls, Consumer<MetadataRecord> out) {
        for (AccessControlEntryRecord entry : acls.sortedById()) {
            out.accept(MetadataRecord.newBuilder().setAccessControlEntry(entry).build());
        }
    }

    static void scram(ScramImage scram, Consumer<MetadataRecord> out) {
        for (String user : scram.users()) {
            for (io.vavr.Tuple2<ScramMechanism, StoredScramCredential> entry : scram.credentials(user)) {
                StoredScramCredential credential = entry._2();
                out.accept(MetadataRecord.newBuilder().setUserScramCredential(UserScramCredentialRecord.newBuilder()
                        .setName(user).setMechanism(entry._1().type())
                        .setSalt(ByteString.copyFrom(credential.salt()))
                        .setStoredKey(ByteString.copyFrom(credential.storedKey()))
                        .setServerKey(ByteString.copyFrom(credential.serverKey()))
                        .setIterations(credential.iterations())).build());
            }
        }
    }
}

package io.metaquorum.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.RemoveAccessControlEntryRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An impossible record stops replay with an exception that names its offset (docs/engineering-rules.md rule 7). */
class ReplayValidationTest {
    private static final Uuid T1 = TopicIds.uuid(11, 1);

    private static MetadataRecord topic(String name, Uuid id) {
        return MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(id)).build();
    }

    private static MetadataRecord partition(Uuid topic, int index, List<Integer> replicas, List<Integer> isr, int leader) {
        return MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(topic)
                .setPartition(index).addAllReplicas(replicas).addAllIsr(isr).setLeader(leader)).build();
    }

    /** Replays {@code valid} at offsets 0.., then {@code invalid} at the next offset, which must fail there. */
    private static void assertRefused(List<MetadataRecord> valid, MetadataRecord invalid, String detail) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        for (int i = 0; i < valid.size(); i++) {
            delta.replay(valid.get(i), i, 1);
        }
        InvalidRecordException e = assertThrows(InvalidRecordException.class,
                () -> delta.replay(invalid, valid.size(), 1));
        assertEquals(valid.size(), e.offset());
        assertTrue(e.getMessage().contains("offset " + valid.size()) && e.getMessage().contains(detail),
                e.getMessage());
    }

    @Test
    void topicRecords() {
        assertRefused(List.of(topic("a", T1)), topic("b", T1), "already belongs to topic 'a'");
        assertRefused(List.of(topic("a", T1)), topic("a", TopicIds.uuid(11, 2)), "already exists");
        assertRefused(List.of(), topic("a", TopicIds.ZERO), "reserved topic id");
        assertRefused(List.of(), topic("a", TopicIds.METADATA_TOPIC_ID), "reserved topic id");
        assertRefused(List.of(), topic("", T1), "empty topic name");
    }

    @Test
    void partitionRecords() {
        assertRefused(List.of(), partition(T1, 0, List.of(1), List.of(1), 1), "unknown topic id");
        assertRefused(List.of(topic("a", T1)), partition(T1, 1, List.of(1), List.of(1), 1), "added in order");
        assertRefused(List.of(topic("a", T1)), partition(T1, 0, List.of(), List.of(), -1), "no replicas");
        assertRefused(List.of(topic("a", T1)), partition(T1, 0, List.of(1, 1), List.of(1), 1), "listed twice");
        assertRefused(List.of(topic("a", T1)), partition(T1, 0, List.of(1), List.of(2), -1), "not a subset");
        assertRefused(List.of(topic("a", T1)), partition(T1, 0, List.of(1, 2), List.of(1), 2), "not in isr");
        MetadataRecord p0 = partition(T1, 0, List.of(1, 2), List.of(1, 2), 1);
        assertRefused(List.of(topic("a", T1), p0), p0, "added in order");
    }

    @Test
    void partitionChangeRecords() {
        List<MetadataRecord> base = List.of(topic("a", T1), partition(T1, 0, List.of(1, 2), List.of(1, 2), 1));
        PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder().setTopicId(T1).setPartition(0);
        assertRefused(base, MetadataRecord.newBuilder().setPartitionChange(change.clone().setLeader(2)
                .setLeaderEpoch(0).setPartitionEpoch(1)).build(), "leader epoch 0 after 0");
        assertRefused(base, MetadataRecord.newBuilder().setPartitionChange(change.clone().setLeader(2)
                .setLeaderEpoch(1).setPartitionEpoch(0)).build(), "partition epoch 0 does not follow 0");
        assertRefused(base, MetadataRecord.newBuilder().setPartitionChange(change.clone().setPartition(5)
                .setPartitionEpoch(1)).build(), "has no partition 5");
        assertRefused(base, MetadataRecord.newBuilder().setPartitionChange(change.clone().setLeader(3)
                .setLeaderEpoch(1).setPartitionEpoch(1)).build(), "not in isr");
    }

    @Test
    void otherRecords() {
        assertRefused(List.of(), MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                .setTopicId(T1)).build(), "unknown topic id");
        assertRefused(List.of(), MetadataRecord.newBuilder().setConfig(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC).setResourceName("a").setName("k")
                .setValue("v")).build(), "unknown topic 'a'");
        MetadataRecord register = MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder()
                .setBrokerId(1).setBrokerEpoch(5).setFenced(true)).build();
        assertRefused(List.of(register), register, "does not follow its registered epoch 5");
        assertRefused(List.of(register), MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder()
                .setBrokerId(1).setBrokerEpoch(5)).build(), "already fenced");
        assertRefused(List.of(register), MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder()
                .setBrokerId(1).setBrokerEpoch(4)).build(), "registered with epoch 5");
    }

    private static AccessControlEntryRecord.Builder acl(long id) {
        return AccessControlEntryRecord.newBuilder().setId(TopicIds.uuid(7, id)).setResourceType(2)
                .setResourceName("orders").setPatternType(3).setPrincipal("User:bob").setHost("*").setOperation(3)
                .setPermissionType(3);
    }

    private static MetadataRecord record(AccessControlEntryRecord.Builder acl) {
        return MetadataRecord.newBuilder().setAccessControlEntry(acl).build();
    }

    /** An ACL Kafka's controller would not have created cannot be in the log (AclControlManager.validateNewAcl). */
    @Test
    void aclRecords() {
        assertRefused(List.of(), record(acl(0).setId(TopicIds.ZERO)), "the zero id");
        assertRefused(List.of(record(acl(1))), record(acl(1).setResourceName("other")), "already exists");
        assertRefused(List.of(record(acl(1))), record(acl(2)), "the same ACL exists under another id");
        assertRefused(List.of(), record(acl(1).setResourceType(1)), "resource type 1");
        assertRefused(List.of(), record(acl(1).setResourceType(99)), "resource type 99");
        assertRefused(List.of(), record(acl(1).setPatternType(2)), "pattern type 2");
        assertRefused(List.of(), record(acl(1).setOperation(1)), "operation 1");
        assertRefused(List.of(), record(acl(1).setOperation(0)), "operation 0");
        assertRefused(List.of(), record(acl(1).setPermissionType(1)), "permission type 1");
        assertRefused(List.of(), record(acl(1).setResourceName("")), "empty resource name");
        assertRefused(List.of(), record(acl(1).setPrincipal("bob")), "is not TYPE:NAME");
        assertRefused(List.of(), MetadataRecord.newBuilder().setRemoveAccessControlEntry(
                RemoveAccessControlEntryRecord.newBuilder().setId(TopicIds.uuid(7, 1))).build(), "unknown ACL id");
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(record(acl(1)), 0, 1);
        delta.replay(record(acl(2).setHost("10.0.0.1")), 1, 1);
        delta.replay(record(acl(3).setPatternType(4)), 2, 1);
        assertEquals(3, delta.apply().acls().byId().size(), "differing in host or pattern type is another ACL");
    }

    @Test
    void offsetsMustMoveForward() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.advanceTo(3, 1);
        InvalidRecordException e = assertThrows(InvalidRecordException.class, () -> delta.advanceTo(3, 1));
        assertEquals(3, e.offset());
    }
}

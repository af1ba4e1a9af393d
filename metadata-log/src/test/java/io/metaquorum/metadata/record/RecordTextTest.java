package io.metaquorum.metadata.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordTextTest {
    private static final List<PartitionRecord> PARTITIONS = List.of(
            PartitionRecord.getDefaultInstance(),
            PartitionRecord.newBuilder().setTopicId(TopicIds.uuid(-1, 42)).setPartition(7).addReplicas(4).addReplicas(5)
                    .addIsr(5).setLeader(5).setLeaderEpoch(3).setPartitionEpoch(9).build(),
            PartitionRecord.newBuilder().setTopicId(TopicIds.uuid(1, 2)).addReplicas(1).setLeader(-1).build());

    @Test
    void thePartitionFastPathPrintsWhatTheDescriptorWalkPrints() {
        for (PartitionRecord partition : PARTITIONS) {
            for (boolean json : new boolean[] {false, true}) {
                StringBuilder fast = new StringBuilder();
                RecordText.appendPartition(partition, fast, json);
                StringBuilder generic = new StringBuilder();
                RecordText.appendFieldsByDescriptor(partition, generic, json);
                assertEquals(generic.toString(), fast.toString());
            }
        }
        assertEquals("topic_id: \"__________8AAAAAAAAAKg\" partition: 7 replicas: [4, 5] isr: [5] leader: 5 "
                + "leader_epoch: 3 partition_epoch: 9", RecordText.text(PARTITIONS.get(1)));
    }

    @Test
    void idsPrintInKafkasFormAndOptionalFieldsOnlyWhenSet() {
        assertEquals("{\"name\": \"demo\", \"topicId\": \"AAAAAAAAAAEAAAAAAAAAAg\"}", RecordText.json(TopicRecord
                .newBuilder().setName("demo").setTopicId(TopicIds.uuid(1, 2)).build()));
        ConfigRecord deletion = ConfigRecord.newBuilder().setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC)
                .setResourceName("t\"1").setName("retention.ms").build();
        assertEquals("resource_type: CONFIG_RESOURCE_TOPIC resource_name: \"t\\\"1\" name: \"retention.ms\"",
                RecordText.text(deletion));
        assertEquals("{\"resourceType\": \"CONFIG_RESOURCE_TOPIC\", \"resourceName\": \"t\\\"1\", \"name\": "
                + "\"retention.ms\", \"value\": \"1\"}", RecordText.json(deletion.toBuilder().setValue("1").build()));
    }
}

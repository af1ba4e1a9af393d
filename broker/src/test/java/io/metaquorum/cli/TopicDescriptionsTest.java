package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The describe formats on their own: edge cases the tool tests do not reach. */
class TopicDescriptionsTest {
    @Test
    void aTopicWithoutPartitionsOrConfigsStillPrintsItsLine() {
        DescribedTopic topic = DescribedTopic.newBuilder().setName("empty").setTopicId(TopicIds.uuid(0, 1)).build();
        assertEquals("Topic: empty\tTopicId: AAAAAAAAAAAAAAAAAAAAAQ\tPartitionCount: 0\tReplicationFactor: 0\tConfigs: \n",
                TopicDescriptions.text(topic));
        assertEquals("{\"topics\": [{\"name\": \"empty\", \"topicId\": \"AAAAAAAAAAAAAAAAAAAAAQ\", \"configs\": {}, "
                + "\"partitions\": []}]}", TopicDescriptions.json(List.of(topic)));
    }

    @Test
    void jsonStringsAreEscapedAndNoTopicsIsAnEmptyList() {
        DescribedTopic topic = DescribedTopic.newBuilder().setName("t").setTopicId(TopicIds.uuid(0, 1))
                .addConfigs(AdminResponses.config("k", "a\"b\\c\n\u0001", ConfigSource.DYNAMIC_TOPIC_CONFIG)).build();
        assertEquals("{\"topics\": [{\"name\": \"t\", \"topicId\": \"AAAAAAAAAAAAAAAAAAAAAQ\", "
                + "\"configs\": {\"k\": \"a\\\"b\\\\c\\n\\u0001\"}, \"partitions\": []}]}",
                TopicDescriptions.json(List.of(topic)));
        assertEquals("{\"topics\": []}", TopicDescriptions.json(List.of()));
    }

    @Test
    void configsFromOtherSourcesAreLeftOut() {
        DescribedTopic topic = DescribedTopic.newBuilder().setName("t").setTopicId(TopicIds.uuid(0, 1))
                .addConfigs(AdminResponses.config("b", "2", ConfigSource.STATIC_BROKER_CONFIG))
                .addConfigs(AdminResponses.config("a", "1", ConfigSource.DYNAMIC_TOPIC_CONFIG)).build();
        assertEquals(List.of("a"), TopicDescriptions.ownConfigs(topic).stream().map(c -> c.getName()).toList());
    }
}

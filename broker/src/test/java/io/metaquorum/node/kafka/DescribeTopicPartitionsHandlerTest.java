package io.metaquorum.node.kafka;

import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.AdminRequests;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData.TopicRequest;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeTopicPartitionsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** DescribeTopicPartitions through the adapter: topics a (3 partitions) and b (1), brokers 1-3. */
class DescribeTopicPartitionsHandlerTest {
    private KafkaHarness kafka;

    @BeforeEach
    void start() {
        kafka = new KafkaHarness(NodeAccess.DISABLED).brokers(1, 2, 3);
        kafka.create(KafkaHarness.topic("b", 1, 1), KafkaHarness.topic("a", 3, 2));
    }

    @AfterEach
    void stop() throws Exception {
        kafka.close();
    }

    private DescribeTopicPartitionsResponseData describe(List<String> names, int limit,
                                                         DescribeTopicPartitionsRequestData.Cursor cursor) {
        List<TopicRequest> topics = new ArrayList<>();
        names.forEach(n -> topics.add(new TopicRequest().setName(n)));
        return kafka.<DescribeTopicPartitionsResponse>call(new DescribeTopicPartitionsRequestData().setTopics(topics)
                .setResponsePartitionLimit(limit).setCursor(cursor), (short) 0).data();
    }

    private static DescribeTopicPartitionsRequestData.Cursor cursor(String topic, int partition) {
        return new DescribeTopicPartitionsRequestData.Cursor().setTopicName(topic).setPartitionIndex(partition);
    }

    private static List<String> shape(DescribeTopicPartitionsResponseData page) {
        List<String> out = new ArrayList<>();
        for (DescribeTopicPartitionsResponseTopic t : page.topics()) {
            out.add(t.name() + Errors.forCode(t.errorCode()) + t.partitions().stream()
                    .map(DescribeTopicPartitionsResponsePartition::partitionIndex).toList());
        }
        DescribeTopicPartitionsResponseData.Cursor next = page.nextCursor();
        out.add(next == null ? "end" : next.topicName() + ":" + next.partitionIndex());
        return out;
    }

    @Test
    void everyTopicPageByPage() {
        DescribeTopicPartitionsResponseData first = describe(List.of(), 2, null);
        assertEquals(List.of("aNONE[0, 1]", "a:2"), shape(first));
        DescribeTopicPartitionsResponseTopic a = first.topics().find("a");
        assertNotEquals(Uuid.ZERO_UUID, a.topicId());
        DescribeTopicPartitionsResponsePartition p0 = a.partitions().get(0);
        assertEquals(2, p0.replicaNodes().size());
        assertEquals(p0.replicaNodes().get(0), p0.leaderId());
        assertEquals(List.of(), p0.eligibleLeaderReplicas());
        assertEquals(AuthorizedOperations.bitField(AdminRequests.TOPIC_OPERATIONS), a.topicAuthorizedOperations(),
                "no authorizer: every topic operation, as Kafka answers");
        DescribeTopicPartitionsResponseData second = describe(List.of(), 2, cursor("a", 2));
        assertEquals(List.of("aNONE[2]", "bNONE[0]", "end"), shape(second));
        assertEquals(List.of("aNONE[0, 1, 2]", "bNONE[0]", "end"), shape(describe(List.of(), 2_000, null)));
    }

    @Test
    void namedTopicsArePagedInNameOrderAndUnknownOnesTakeNoRoom() {
        List<String> names = List.of("zz", "b", "bad name!", "a");
        DescribeTopicPartitionsResponseData first = describe(names, 3, null);
        assertEquals(List.of("aNONE[0, 1, 2]", "b:0"), shape(first));
        DescribeTopicPartitionsResponseData second = describe(names, 3, cursor("b", 0));
        assertEquals(List.of("bNONE[0]", "bad name!INVALID_TOPIC_EXCEPTION[]", "zzUNKNOWN_TOPIC_OR_PARTITION[]",
                "end"), shape(second));
        assertEquals(Uuid.ZERO_UUID, second.topics().find("zz").topicId());
    }

    @Test
    void aBadCursorIsAnInvalidRequest() {
        DescribeTopicPartitionsResponseData negative = describe(List.of("a"), 10, cursor("a", -1));
        assertEquals(Errors.INVALID_REQUEST.code(), negative.topics().find("a").errorCode());
        DescribeTopicPartitionsResponseData elsewhere = describe(List.of("a"), 10, cursor("b", 0));
        assertEquals(Errors.INVALID_REQUEST.code(), elsewhere.topics().find("a").errorCode());
        assertNull(elsewhere.nextCursor());
    }
}

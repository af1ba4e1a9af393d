package io.metaquorum.server.admin;

import io.metaquorum.client.AdminClient;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A paged describe of every topic through gRPC, by hand and with the client, against an active controller. */
class DescribePagesEndpointTest {
    private static final long TIMEOUT_MS = 10_000;
    private AdminTestNode node;

    @BeforeEach
    void start() throws Exception {
        node = AdminTestNode.activeWithThreeBrokers();
        CreateTopicsResponse created = node.admin().createTopics(CreateTopicsRequest.newBuilder()
                .addTopics(topic("t3", 3)).addTopics(topic("t1", 2)).addTopics(topic("t2", 1)).setTimeoutMs(5_000)
                .build());
        created.getTopicsList().forEach(t -> assertEquals(ErrorCode.NONE, t.getErrorCode(), t.getErrorMessage()));
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private static CreatableTopic topic(String name, int partitions) {
        return CreatableTopic.newBuilder().setName(name).setNumPartitions(partitions).setReplicationFactor(3).build();
    }

    @Test
    void pagesFollowTheCursorInNameOrder() {
        DescribeTopicsResponse first = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(3).build());
        assertEquals(ErrorCode.NONE, first.getHeader().getErrorCode(), first.getHeader().getErrorMessage());
        assertEquals(List.of("t1", "t2"), first.getTopicsList().stream().map(DescribedTopic::getName).toList());
        assertEquals(DescribeTopicsCursor.newBuilder().setTopicName("t3").build(), first.getNextCursor());
        DescribeTopicsResponse second = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(2).setCursor(first.getNextCursor()).build());
        assertEquals(2, second.getTopics(0).getPartitionsCount());
        assertEquals(DescribeTopicsCursor.newBuilder().setTopicName("t3").setPartitionIndex(2).build(),
                second.getNextCursor());
        DescribeTopicsResponse last = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(2).setCursor(second.getNextCursor()).build());
        assertEquals(2, last.getTopics(0).getPartitions(0).getPartitionIndex());
        assertFalse(last.hasNextCursor());
    }

    @Test
    void aLimitAboveTheMaximumIsRefusedNamingTheField() {
        DescribeTopicsResponse refused = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(10_001).build());
        assertEquals(ErrorCode.INVALID_REQUEST, refused.getHeader().getErrorCode());
        assertEquals("response_partition_limit is 10001; it must be between 1 and 10000.",
                refused.getHeader().getErrorMessage());
        assertEquals(0, refused.getTopicsCount());
    }

    @Test
    void theClientJoinsPagesIntoTheUnpagedDescribeWithoutDefaultConfigs() {
        List<DescribedTopic> unpaged = node.admin().describeTopics(DescribeTopicsRequest.getDefaultInstance())
                .getTopicsList().stream().map(t -> t.toBuilder().clearConfigs().build()).toList();
        HostPort address = new HostPort(node.address().getHostString(), node.address().getPort());
        try (AdminClient client = AdminClient.connect(List.of(address))) {
            for (int pagePartitions = 1; pagePartitions <= 7; pagePartitions++) {
                List<DescribedTopic> joined = new ArrayList<>();
                client.describeAllTopics(pagePartitions, TIMEOUT_MS, joined::add);
                assertEquals(unpaged, joined, "pages of " + pagePartitions);
            }
            int[] pages = {0};
            client.describeTopicPages(1, TIMEOUT_MS, page -> pages[0]++);
            assertEquals(6, pages[0], "one page per partition");
        }
    }
}

package io.metaquorum.node.admin;

import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pages of a describe of every topic at their boundaries, from images made by replay. */
class DescribePagesTest {
    private static final int CONTROLLER_ID = 1;
    /** b: 2 partitions, a: 3, c: 1, inserted out of name order. */
    private final MetadataImage image = DescribeImages.of(new TreeMap<>(Map.of("b", 2, "a", 3, "c", 1)));

    private static DescribeTopicsResponse page(MetadataImage image, int limit, String topic, int index) {
        DescribeTopicsRequest.Builder request = DescribeTopicsRequest.newBuilder().setResponsePartitionLimit(limit);
        if (topic != null) {
            request.setCursor(DescribeTopicsCursor.newBuilder().setTopicName(topic).setPartitionIndex(index));
        }
        return TopicReadsConverter.describe(request.build(), RequestAccess.unchecked(image), CONTROLLER_ID);
    }

    /** Each topic of the page as "name:first..last" partition indexes. */
    private static List<String> shape(DescribeTopicsResponse page) {
        return page.getTopicsList().stream().map(DescribePagesTest::shape).toList();
    }

    private static String shape(DescribedTopic topic) {
        List<Integer> indexes = topic.getPartitionsList().stream().map(DescribedPartition::getPartitionIndex).toList();
        return topic.getName() + ":" + (indexes.isEmpty() ? "" : indexes.get(0) + ".." + indexes.get(indexes.size() - 1));
    }

    private static String cursor(DescribeTopicsResponse page) {
        return page.hasNextCursor() ? page.getNextCursor().getTopicName() + "/" + page.getNextCursor()
                .getPartitionIndex() : "none";
    }

    @Test
    void limitOneWalksOnePartitionAPage() {
        DescribeTopicsResponse first = page(image, 1, null, 0);
        assertEquals(List.of("a:0..0"), shape(first));
        assertEquals("a/1", cursor(first));
        DescribeTopicsResponse third = page(image, 1, "a", 2);
        assertEquals(List.of("a:2..2"), shape(third));
        assertEquals("b/0", cursor(third), "a full page that ends a topic points at the next topic");
        DescribeTopicsResponse last = page(image, 1, "c", 0);
        assertEquals(List.of("c:0..0"), shape(last));
        assertEquals("none", cursor(last));
    }

    @Test
    void aPageStopsInsideATopicAndTheNextStartsWithItsRest() {
        DescribeTopicsResponse first = page(image, 4, null, 0);
        assertEquals(List.of("a:0..2", "b:0..0"), shape(first));
        assertEquals("b/1", cursor(first));
        DescribeTopicsResponse second = page(image, 4, "b", 1);
        assertEquals(List.of("b:1..1", "c:0..0"), shape(second));
        assertEquals("none", cursor(second));
        assertEquals(first.getTopics(1).getTopicId(), second.getTopics(0).getTopicId());
        assertEquals(image.lastCommittedOffset(), second.getHeader().getMetadataOffset());
    }

    @Test
    void aPageAsLargeAsTheImageIsTheUnpagedDescribeWithoutDefaultConfigs() {
        DescribeTopicsResponse all = TopicReadsConverter.describe(DescribeTopicsRequest.getDefaultInstance(), RequestAccess.unchecked(image),
                CONTROLLER_ID);
        DescribeTopicsResponse page = page(image, 6, null, 0);
        assertEquals(DescribeImages.ownConfigsOnly(all.getTopicsList()), page.getTopicsList());
        assertEquals(all.getHeader(), page.getHeader());
        assertEquals(List.of("retention.ms=3"), page.getTopics(0).getConfigsList().stream()
                .map(c -> c.getName() + "=" + c.getValue()).toList(), "a page carries the configs set on a topic");
        assertTrue(all.getTopics(0).getConfigsCount() > 1, "the unpaged form carries the defaults too");
        assertFalse(page.hasNextCursor());
        assertEquals(List.of("a:0..2", "b:0..1", "c:0..0"), shape(all), "the unpaged form is in name order too");
    }

    @Test
    void anEmptyImageIsOneEmptyLastPage() {
        DescribeTopicsResponse page = page(MetadataImage.EMPTY, 1, null, 0);
        assertEquals(0, page.getTopicsCount());
        assertFalse(page.hasNextCursor());
    }

    @Test
    void aCursorPastTheEndIsAnEmptyLastPage() {
        DescribeTopicsResponse page = page(image, 10, "zzz", 0);
        assertEquals(List.of(), shape(page));
        assertEquals("none", cursor(page));
        assertEquals(List.of(), shape(page(image, 10, "c", 5)), "an index past the last topic's end");
    }

    @Test
    void aCursorAtADeletedTopicGoesOnWithTheNextName() {
        MetadataImage withoutB = DescribeImages.without(image, "b");
        DescribeTopicsResponse page = page(withoutB, 10, "b", 1);
        assertEquals(List.of("c:0..0"), shape(page));
        assertEquals(withoutB.lastCommittedOffset(), page.getHeader().getMetadataOffset());
        assertEquals(List.of("c:0..0"), shape(page(image, 10, "bb", 0)), "a name between two topics");
    }

    @Test
    void aCursorPastTheEndOfItsTopicGoesOnWithTheNextTopic() {
        assertEquals(List.of("b:0..1", "c:0..0"), shape(page(image, 10, "a", 3)));
    }

    @Test
    void aCursorWithoutALimitGetsTheDefaultPage() {
        Map<String, Integer> big = new TreeMap<>(Map.of("big", RequestLimits.DESCRIBE_PAGE_PARTITIONS_DEFAULT + 5));
        DescribeTopicsResponse page = TopicReadsConverter.describe(DescribeTopicsRequest.newBuilder()
                .setCursor(DescribeTopicsCursor.getDefaultInstance()).build(),
                RequestAccess.unchecked(DescribeImages.of(big)), CONTROLLER_ID);
        assertEquals(RequestLimits.DESCRIBE_PAGE_PARTITIONS_DEFAULT, page.getTopics(0).getPartitionsCount());
        assertEquals("big/" + RequestLimits.DESCRIBE_PAGE_PARTITIONS_DEFAULT, cursor(page));
    }

    @Test
    void aTopicWithoutPartitionsTakesOnePlaceInAPage() {
        MetadataImage withEmpty = DescribeImages.of(new TreeMap<>(Map.of("a", 1, "b", 0, "c", 1)));
        DescribeTopicsResponse first = page(withEmpty, 2, null, 0);
        assertEquals(List.of("a:0..0", "b:"), shape(first));
        assertEquals("c/0", cursor(first));
        assertTrue(page(withEmpty, 1, "b", 0).hasNextCursor());
    }
}

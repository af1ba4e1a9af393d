package io.metaquorum.client;

import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Topics split across pages are handed on whole, or not at all when they changed between the pages. */
class PageJoinerTest {
    private final List<String> seen = new ArrayList<>();
    private final PageJoiner joiner = new PageJoiner(topic -> seen.add(topic.getName() + "@"
            + topic.getTopicId().getLeastSignificantBits() + ":" + topic.getPartitionsCount()));

    private static DescribedTopic piece(String name, long id, int from, int to) {
        DescribedTopic.Builder topic = DescribedTopic.newBuilder().setName(name).setTopicId(TopicIds.uuid(0, id));
        for (int i = from; i < to; i++) {
            topic.addPartitions(DescribedPartition.newBuilder().setPartitionIndex(i));
        }
        return topic.build();
    }

    private static DescribeTopicsResponse page(String cutName, int cutIndex, DescribedTopic... topics) {
        DescribeTopicsResponse.Builder page = DescribeTopicsResponse.newBuilder().addAllTopics(List.of(topics));
        if (cutName != null) {
            page.setNextCursor(DescribeTopicsCursor.newBuilder().setTopicName(cutName).setPartitionIndex(cutIndex));
        }
        return page.build();
    }

    @Test
    void aTopicOverThreePagesIsHandedOnOnceWhole() {
        joiner.onPage(page("b", 1, piece("a", 1, 0, 2), piece("b", 2, 0, 1)));
        joiner.onPage(page("b", 2, piece("b", 2, 1, 2)));
        joiner.onPage(page("c", 0, piece("b", 2, 2, 3)));
        joiner.onPage(page(null, 0, piece("c", 3, 0, 1)));
        assertEquals(List.of("a@1:2", "b@2:3", "c@3:1"), seen);
    }

    @Test
    void aTopicDeletedOrCreatedAgainInsideTheWalkIsLeftOut() {
        joiner.onPage(page("b", 1, piece("b", 2, 0, 1)));
        joiner.onPage(page("d", 1, piece("c", 3, 0, 1), piece("d", 4, 0, 1)));
        joiner.onPage(page(null, 0, piece("d", 5, 1, 2), piece("e", 6, 0, 1)));
        assertEquals(List.of("c@3:1", "e@6:1"), seen, "b was deleted, d deleted and created again");
        joiner.onPage(page("f", 1, piece("f", 7, 0, 1)));
        joiner.onPage(page("f", 2, piece("f", 8, 1, 2)));
        joiner.onPage(page(null, 0, piece("f", 8, 2, 3), piece("g", 9, 0, 1)));
        assertEquals(List.of("c@3:1", "e@6:1", "g@9:1"), seen, "the new f's rest over two pages is dropped");
    }

    @Test
    void aPageEndingAtATopicsEndHandsItOn() {
        joiner.onPage(page("b", 0, piece("a", 1, 0, 2)));
        assertEquals(List.of("a@1:2"), seen);
        joiner.onPage(page(null, 0));
        assertEquals(List.of("a@1:2"), seen);
    }
}

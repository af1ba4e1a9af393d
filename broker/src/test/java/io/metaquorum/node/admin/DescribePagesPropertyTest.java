package io.metaquorum.node.admin;

import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * For random images and page sizes, the pages of a describe of every topic, joined where a
 * page stopped inside a topic, are exactly the unpaged describe of the same image (but for
 * the default configs, which pages leave out); every page keeps to its limit; the walk ends.
 */
class DescribePagesPropertyTest {
    /** The images this property draws hold names that share a {@code hashCode}; each is its own topic. */
    @Example
    void namesSharingAHashCodeAreTwoTopics() {
        assertEquals(2, DescribeImages.of(new TreeMap<>(Map.of("Ka", 1, "LB", 2))).topics().topicCount());
    }

    @Property(tries = 300)
    void joinedPagesAreTheUnpagedDescribe(
            @ForAll @Size(max = 12) Map<@AlphaChars @StringLength(min = 1, max = 4) String,
                    @IntRange(min = 0, max = 9) Integer> partitionsByName,
            @ForAll @IntRange(min = 1, max = 25) int limit) {
        MetadataImage image = DescribeImages.of(new TreeMap<>(partitionsByName));
        List<DescribedTopic> unpaged = DescribeImages.ownConfigsOnly(TopicReadsConverter.describe(
                DescribeTopicsRequest.getDefaultInstance(), RequestAccess.unchecked(image), 1).getTopicsList());
        List<DescribedTopic.Builder> joined = new ArrayList<>();
        DescribeTopicsRequest.Builder request = DescribeTopicsRequest.newBuilder().setResponsePartitionLimit(limit);
        int pagesMax = 1 + partitionsByName.values().stream().mapToInt(p -> Math.max(1, p)).sum();
        for (int pages = 1; ; pages++) {
            assertTrue(pages <= pagesMax, "the walk did not end after " + pagesMax + " pages");
            assertEquals(java.util.Optional.empty(), RequestLimits.check(request.build()));
            DescribeTopicsResponse page = TopicReadsConverter.describe(request.build(),
                    RequestAccess.unchecked(image), 1);
            assertTrue(page.getTopicsList().stream().mapToInt(t -> Math.max(1, t.getPartitionsCount())).sum() <= limit,
                    "page over its limit: " + page);
            for (DescribedTopic piece : page.getTopicsList()) {
                DescribedTopic.Builder last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
                if (last != null && last.getName().equals(piece.getName())) {
                    last.addAllPartitions(piece.getPartitionsList());
                } else {
                    joined.add(piece.toBuilder());
                }
            }
            if (!page.hasNextCursor()) {
                break;
            }
            request.setCursor(page.getNextCursor());
        }
        assertEquals(unpaged, joined.stream().map(DescribedTopic.Builder::build).toList());
    }
}

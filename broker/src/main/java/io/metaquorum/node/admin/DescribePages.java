package io.metaquorum.node.admin;

import io.metaquorum.metadata.authorizer.AscendingDecisions;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import java.util.Iterator;

/**
 * One page of a describe of every topic, as Kafka's DescribeTopicPartitions pages it
 * (KIP-966): topics in name order ({@link String#compareTo}) from the request's cursor, at
 * most {@code response_partition_limit} partitions, stopping inside a topic when the page is
 * full; {@code next_cursor} says where the next page starts, absent on the last page.
 *
 * <p>The page is read from one committed image by seeking its name index to the cursor, so
 * time and memory per request grow with the page, not with the image. A cursor whose topic
 * no longer exists starts the page at the next name; a cursor at an index past the end of
 * its topic (the topic was deleted and created again smaller) goes on with the next topic.
 * A topic without partitions counts as one partition, so every page makes progress. A
 * topic carries only the configs set on it (as Kafka's DescribeTopicPartitions carries none):
 * the catalogue defaults, the same for every topic, would be most of the page
 * (DescribeConfigs gives them).
 * Pages of one walk may come from different images (another node, a later commit): each
 * page is consistent in itself, and a topic created or deleted between two pages may or
 * may not appear (docs/admin-api.md). Topics the caller may not DESCRIBE are left out
 * silently, and take no room on the page.
 */
final class DescribePages {
    private DescribePages() {
    }

    /** Whether {@code request} asks for a page (a limit or a cursor) rather than every topic at once. */
    static boolean isPaged(DescribeTopicsRequest request) {
        return request.hasResponsePartitionLimit() || request.hasCursor();
    }

    /** The page {@code request} asks for; its limit and cursor passed {@link RequestLimits#check}. */
    static DescribeTopicsResponse page(DescribeTopicsRequest request, RequestAccess rights, int controllerId) {
        MetadataImage image = rights.image();
        int room = request.hasResponsePartitionLimit() ? request.getResponsePartitionLimit()
                : RequestLimits.DESCRIBE_PAGE_PARTITIONS_DEFAULT;
        String fromName = request.getCursor().getTopicName();
        int fromIndex = request.getCursor().getPartitionIndex();
        DescribeTopicsResponse.Builder out = DescribeTopicsResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset()));
        Iterator<TopicImage> topics = image.topics().topicsFrom(fromName);
        AscendingDecisions listed = rights.topicListing();
        while (topics.hasNext()) {
            TopicImage topic = topics.next();
            if (!listed.allows(topic.name())) {
                continue;
            }
            int first = topic.name().equals(fromName) ? fromIndex : 0;
            if (first > 0 && first >= topic.partitionCount()) {
                continue;
            }
            if (room == 0) {
                return out.setNextCursor(cursor(topic.name(), first)).build();
            }
            int end = (int) Math.min(topic.partitionCount(), (long) first + room);
            out.addTopics(TopicReadsConverter.described(topic, image, first, end, false));
            room -= Math.max(1, end - first);
            if (end < topic.partitionCount()) {
                return out.setNextCursor(cursor(topic.name(), end)).build();
            }
        }
        return out.build();
    }

    private static DescribeTopicsCursor cursor(String topicName, int partitionIndex) {
        return DescribeTopicsCursor.newBuilder().setTopicName(topicName).setPartitionIndex(partitionIndex).build();
    }
}

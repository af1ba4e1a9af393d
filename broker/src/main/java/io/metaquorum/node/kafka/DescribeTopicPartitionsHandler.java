package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.ClusterMetadata;
import io.metaquorum.node.admin.RequestLimits;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.TopicRef;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.DescribeTopicPartitionsRequest;
import org.apache.kafka.common.requests.DescribeTopicPartitionsResponse;

/**
 * Kafka's DescribeTopicPartitions (KIP-966), what Kafka's AdminClient describes topics with:
 * topics in name order, at most {@code response_partition_limit} partitions a page (clamped to
 * 1..{@link RequestLimits#DESCRIBE_PAGE_PARTITIONS_MAX}), from the cursor on, with the cursor of
 * the next page when one is left.
 *
 * <p>With no topics named it is our paged describe of every topic ({@code DescribePages}): the
 * topics the caller may not DESCRIBE are left out silently. With topics named, they are described
 * from one image and paged here the way Kafka pages them ({@link NamedTopicPages}). The brokers
 * come from the same read, so leaders are judged reachable on the caller's listener against the
 * same image ({@link ListenerPartitions}).
 */
final class DescribeTopicPartitionsHandler implements KafkaApiHandler {
    private final AdminRequests admin;

    DescribeTopicPartitionsHandler(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        DescribeTopicPartitionsRequest describe = (DescribeTopicPartitionsRequest) request;
        DescribeTopicPartitionsRequestData data = describe.data();
        DescribeTopicPartitionsRequestData.Cursor cursor = data.cursor();
        TreeSet<String> names = new TreeSet<>();
        data.topics().forEach(t -> names.add(t.name()));
        Optional<String> bad = badCursor(cursor, names);
        if (bad.isPresent()) {
            reply.accept(describe.getErrorResponse(new InvalidRequestException(bad.get())));
            return;
        }
        int limit = Math.max(1, Math.min(data.responsePartitionLimit(), RequestLimits.DESCRIBE_PAGE_PARTITIONS_MAX));
        String fromName = cursor == null ? "" : cursor.topicName();
        int fromIndex = cursor == null ? 0 : cursor.partitionIndex();
        DescribeTopicsRequest.Builder asked = DescribeTopicsRequest.newBuilder();
        if (names.isEmpty()) {
            asked.setResponsePartitionLimit(limit);
            if (cursor != null) {
                asked.setCursor(DescribeTopicsCursor.newBuilder().setTopicName(fromName).setPartitionIndex(fromIndex));
            }
        } else {
            names.tailSet(fromName, true).forEach(name -> asked.addTopics(TopicRef.newBuilder().setName(name)));
        }
        ClusterMetadata read = admin.describeMetadata(Optional.of(asked.build()), call.origin());
        DescribeTopicsResponse topics = read.topics();
        ErrorCode failed = topics.getHeader().getErrorCode();
        if (failed != ErrorCode.NONE) {
            reply.accept(describe.getErrorResponse(Errors.forCode(WireErrors.code(failed))
                    .exception(WireValues.message(failed, topics.getHeader().getErrorMessage()))));
            return;
        }
        ListenerPartitions partitions = new ListenerPartitions(read.cluster(), call.listenerName());
        DescribeTopicPartitionsResponseData out = names.isEmpty() ? everyTopic(topics, partitions)
                : NamedTopicPages.page(topics, partitions, fromName, fromIndex, limit);
        out.topics().forEach(t -> t.setTopicAuthorizedOperations(AuthorizedOperations.ofTopic(admin, call.origin(),
                t.name(), t.errorCode())));
        reply.accept(new DescribeTopicPartitionsResponse(out));
    }

    /** Kafka's checks of a cursor: an index not below 0, and with names, one of them. */
    private static Optional<String> badCursor(DescribeTopicPartitionsRequestData.Cursor cursor,
                                              TreeSet<String> names) {
        if (cursor == null) {
            return Optional.empty();
        }
        if (cursor.partitionIndex() < 0) {
            return Optional.of("The cursor's partition index is " + cursor.partitionIndex() + "; it cannot be negative.");
        }
        if (!names.isEmpty() && !names.contains(cursor.topicName())) {
            return Optional.of("The cursor's topic " + cursor.topicName() + " is not one of the topics asked for.");
        }
        return Optional.empty();
    }

    private static DescribeTopicPartitionsResponseData everyTopic(DescribeTopicsResponse page,
                                                                  ListenerPartitions partitions) {
        DescribeTopicPartitionsResponseData out = new DescribeTopicPartitionsResponseData();
        for (DescribedTopic topic : page.getTopicsList()) {
            out.topics().add(NamedTopicPages.topic(topic, partitions, 0, topic.getPartitionsCount()));
        }
        if (page.hasNextCursor()) {
            out.setNextCursor(new DescribeTopicPartitionsResponseData.Cursor()
                    .setTopicName(page.getNextCursor().getTopicName())
                    .setPartitionIndex(page.getNextCursor().getPartitionIndex()));
        }
        return out;
    }
}

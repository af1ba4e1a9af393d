package io.metaquorum.sim.system.workload;

import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopicResult;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedConfig;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.sim.system.admin.AdminOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The admin API's responses as the per-item results a simulated client acts on and its
 * history records: a write's code and topic id, what a read saw and at which offset. A
 * response that carries no result for an item (a request-level error) gives the item the
 * header's code.
 */
public final class AdminReplies {
    private AdminReplies() {
    }

    /**
     * A created topic whose id the caller may not see (no DESCRIBE_CONFIGS on it: its
     * {@code topic_config_error_code} says so and the id is zeroed) is recorded with no id.
     */
    public static AdminAnswer created(CreateTopicsResponse response, boolean validateOnly) {
        List<ItemResult> items = new ArrayList<>();
        for (CreatableTopicResult topic : response.getTopicsList()) {
            ErrorCode code = topic.getErrorCode();
            boolean hidden = topic.getTopicConfigErrorCode() == ErrorCode.TOPIC_AUTHORIZATION_FAILED;
            String id = code == ErrorCode.NONE && !validateOnly && !hidden ? TopicIds.toBase64(topic.getTopicId())
                    : null;
            items.add(new ItemResult(topic.getName(), code, new AdminOutput.WriteResult(code, id)));
        }
        return answer(response.getHeader(), items);
    }

    public static AdminAnswer deleted(DeleteTopicsResponse response) {
        List<ItemResult> items = new ArrayList<>();
        for (DeletableTopicResult topic : response.getTopicsList()) {
            ErrorCode code = topic.getErrorCode();
            String id = code == ErrorCode.NONE ? TopicIds.toBase64(topic.getTopicId()) : null;
            items.add(new ItemResult(topic.getName(), code, new AdminOutput.WriteResult(code, id)));
        }
        return answer(response.getHeader(), items);
    }

    public static AdminAnswer grown(CreatePartitionsResponse response) {
        List<ItemResult> items = new ArrayList<>();
        for (CreatePartitionsTopicResult topic : response.getTopicsList()) {
            items.add(new ItemResult(topic.getName(), topic.getErrorCode(),
                    AdminOutput.WriteResult.failed(topic.getErrorCode())));
        }
        return answer(response.getHeader(), items);
    }

    public static AdminAnswer altered(IncrementalAlterConfigsResponse response) {
        List<ItemResult> items = new ArrayList<>();
        for (AlterConfigsResourceResult result : response.getResultsList()) {
            items.add(new ItemResult(result.getResourceName(), result.getErrorCode(),
                    AdminOutput.WriteResult.failed(result.getErrorCode())));
        }
        return answer(response.getHeader(), items);
    }

    /** A describe of one topic: its id, partition count and the configs set on it, at the answer's offset. */
    public static AdminAnswer described(DescribeTopicsResponse response, String name) {
        long offset = response.getHeader().getMetadataOffset();
        List<ItemResult> items = new ArrayList<>();
        for (DescribedTopic topic : response.getTopicsList()) {
            ErrorCode code = topic.getErrorCode();
            AdminOutput.TopicView view = null;
            if (code == ErrorCode.NONE) {
                TreeMap<String, String> set = new TreeMap<>();
                for (DescribedConfig config : topic.getConfigsList()) {
                    if (config.getConfigSource() == ConfigSource.DYNAMIC_TOPIC_CONFIG) {
                        set.put(config.getName(), config.getValue());
                    }
                }
                view = new AdminOutput.TopicView(TopicIds.toBase64(topic.getTopicId()), topic.getPartitionsCount(),
                        set);
            }
            items.add(new ItemResult(name, code, new AdminOutput.Described(code, view, offset)));
        }
        return answer(response.getHeader(), items);
    }

    public static AdminAnswer listed(ListTopicsResponse response) {
        TreeMap<String, String> ids = new TreeMap<>();
        for (ListedTopic topic : response.getTopicsList()) {
            ids.put(topic.getName(), TopicIds.toBase64(topic.getTopicId()));
        }
        return answer(response.getHeader(), List.of(new ItemResult(AdminCall.ListTopics.ITEM, ErrorCode.NONE,
                new AdminOutput.Listed(ids, response.getHeader().getMetadataOffset()))));
    }

    private static AdminAnswer answer(AdminResponseHeader header, List<ItemResult> items) {
        return new AdminAnswer(items, header.getErrorCode(), header.getControllerId());
    }
}

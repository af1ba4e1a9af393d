package io.metaquorum.node.admin;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigOp;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResult;
import io.metaquorum.metadata.controller.ConfigurationControlManager.OpType;
import io.metaquorum.metadata.controller.TopicConfigCatalog;
import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.ConfigOperation;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeConfigsResponse;
import io.metaquorum.protocol.DescribeConfigsResult;
import io.metaquorum.protocol.DescribedConfig;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * DescribeConfigs (from an image) and IncrementalAlterConfigs (through the controller)
 * between the wire and the controller's types. A topic's described configs are every known
 * topic config: the ones set on it as DYNAMIC_TOPIC_CONFIG, the others with the catalogue's
 * default as DEFAULT_CONFIG.
 */
final class ConfigsConverter {
    private ConfigsConverter() {
    }

    /** A topic's configs, sorted by name; {@code keys} empty means all of them. */
    static List<DescribedConfig> topicConfigs(Map<String, String> set, List<String> keys) {
        Set<String> wanted = new HashSet<>(keys);
        TreeMap<String, DescribedConfig> out = new TreeMap<>();
        for (TopicConfigCatalog.Entry e : TopicConfigCatalog.entriesByName().values()) {
            out.put(e.name(), described(e.name(), e.defaultValue(), ConfigSource.DEFAULT_CONFIG));
        }
        for (Map.Entry<String, String> e : set.entrySet()) {
            out.put(e.getKey(), described(e.getKey(), e.getValue(), ConfigSource.DYNAMIC_TOPIC_CONFIG));
        }
        return out.values().stream().filter(c -> wanted.isEmpty() || wanted.contains(c.getName())).toList();
    }

    /** The configs set on a topic, by name, as DYNAMIC_TOPIC_CONFIG: no catalogue defaults. */
    static List<DescribedConfig> setTopicConfigs(Map<String, String> set) {
        List<DescribedConfig> out = new ArrayList<>(set.size());
        set.forEach((name, value) -> out.add(described(name, value, ConfigSource.DYNAMIC_TOPIC_CONFIG)));
        return out;
    }

    private static DescribedConfig described(String name, String value, ConfigSource source) {
        return DescribedConfig.newBuilder().setName(name).setValue(value).setConfigSource(source).build();
    }

    /** A resource the caller may not DESCRIBE_CONFIGS answers an authorization error, before any existence check. */
    static DescribeConfigsResponse describe(DescribeConfigsRequest request, RequestAccess rights, int controllerId) {
        MetadataImage image = rights.image();
        DescribeConfigsResponse.Builder out = DescribeConfigsResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset()));
        for (DescribeConfigsResource r : request.getResourcesList()) {
            DescribeConfigsResult.Builder result = DescribeConfigsResult.newBuilder()
                    .setResourceType(r.getResourceType()).setResourceName(r.getResourceName());
            if (!ConfigAccess.allows(rights, AclOperation.DESCRIBE_CONFIGS, r.getResourceType(), r.getResourceName())) {
                out.addResults(result.setErrorCode(ConfigAccess.deniedCode(r.getResourceType()))
                        .setErrorMessage(ConfigAccess.deniedMessage(r.getResourceType())));
                continue;
            }
            Map<String, String> set = image.configs().configs(new ConfigResource(r.getResourceType(),
                    r.getResourceName()));
            if (r.getResourceType() == ConfigResourceType.CONFIG_RESOURCE_TOPIC) {
                if (image.topics().topic(r.getResourceName()) == null) {
                    result.setErrorCode(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                            .setErrorMessage("The topic '" + r.getResourceName() + "' does not exist.");
                } else {
                    result.addAllConfigs(topicConfigs(set, r.getConfigurationKeysList()));
                }
            } else if (r.getResourceType() == ConfigResourceType.CONFIG_RESOURCE_BROKER) {
                Set<String> wanted = new HashSet<>(r.getConfigurationKeysList());
                set.forEach((name, value) -> {
                    if (wanted.isEmpty() || wanted.contains(name)) {
                        result.addConfigs(described(name, value, ConfigSource.DYNAMIC_BROKER_CONFIG));
                    }
                });
            } else {
                result.setErrorCode(ErrorCode.INVALID_REQUEST)
                        .setErrorMessage("Unknown resource type " + r.getResourceType() + ".");
            }
            out.addResults(result);
        }
        return out.build();
    }

    static List<io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource> toController(
            IncrementalAlterConfigsRequest request) {
        List<io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource> out =
                new ArrayList<>(request.getResourcesCount());
        for (AlterConfigsResource r : request.getResourcesList()) {
            List<AlterConfigOp> ops = new ArrayList<>(r.getConfigsCount());
            for (AlterableConfig c : r.getConfigsList()) {
                // The edge let only SET and DELETE through.
                OpType op = c.getConfigOperation() == ConfigOperation.DELETE ? OpType.DELETE : OpType.SET;
                ops.add(new AlterConfigOp(c.getName(), op, c.hasValue() ? c.getValue() : null));
            }
            out.add(new io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource(
                    new ConfigResource(r.getResourceType(), r.getResourceName()), ops));
        }
        return out;
    }

    static IncrementalAlterConfigsResponse toProto(List<AlterConfigsResult> results, int controllerId) {
        IncrementalAlterConfigsResponse.Builder out = IncrementalAlterConfigsResponse.newBuilder()
                .setHeader(ResponseHeaders.ofWrite(results.stream().map(AlterConfigsResult::error).toList(),
                        controllerId));
        for (AlterConfigsResult r : results) {
            out.addResults(result(r.resource().type(), r.resource().name(), r.error()));
        }
        return out.build();
    }

    static IncrementalAlterConfigsResponse failed(IncrementalAlterConfigsRequest request, ApiError error,
                                                  int controllerId) {
        IncrementalAlterConfigsResponse.Builder out = IncrementalAlterConfigsResponse.newBuilder()
                .setHeader(ResponseHeaders.header(error, controllerId, ResponseHeaders.NO_OFFSET));
        for (AlterConfigsResource r : request.getResourcesList()) {
            out.addResults(result(r.getResourceType(), r.getResourceName(), error));
        }
        return out.build();
    }

    private static AlterConfigsResourceResult result(ConfigResourceType type, String name, ApiError error) {
        return AlterConfigsResourceResult.newBuilder().setResourceType(type).setResourceName(name)
                .setErrorCode(error.code()).setErrorMessage(error.message()).build();
    }
}

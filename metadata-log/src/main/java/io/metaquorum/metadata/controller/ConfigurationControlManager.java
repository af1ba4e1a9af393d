package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Topic configs (Kafka's {@code ConfigurationControlManager}): DescribeConfigs reads the
 * image, IncrementalAlterConfigs SET / DELETE is validated like CreateTopics' configs
 * ({@link TopicConfigCatalog}) and becomes ConfigRecords (an absent value deletes a key).
 * Each resource succeeds or fails whole.
 */
public final class ConfigurationControlManager {
    private final ControllerState state;

    public ConfigurationControlManager(ControllerState state) {
        this.state = state;
    }

    /** The operations of IncrementalAlterConfigs this controller takes. */
    public enum OpType { SET, DELETE }

    public record AlterConfigOp(String name, OpType op, String value) {
    }

    public record AlterConfigsResource(ConfigResource resource, List<AlterConfigOp> ops) {
        public AlterConfigsResource {
            ops = List.copyOf(ops);
        }
    }

    public record AlterConfigsResult(ConfigResource resource, ApiError error) {
    }

    /** The configs set on {@code resource}, sorted by name; empty when none. */
    public Map<String, String> describe(ConfigResource resource) {
        return state.image().configs().configs(resource);
    }

    public ControllerResult<List<AlterConfigsResult>> incrementalAlterConfigs(List<AlterConfigsResource> resources,
                                                                              boolean validateOnly) {
        MetadataImage image = state.image();
        List<AlterConfigsResult> results = new ArrayList<>();
        List<MetadataRecord> records = new ArrayList<>();
        for (AlterConfigsResource resource : resources) {
            List<MetadataRecord> resourceRecords = new ArrayList<>();
            ApiError error = alter(image, resource, resourceRecords);
            results.add(new AlterConfigsResult(resource.resource(), error));
            if (error.isSuccess() && !validateOnly) {
                records.addAll(resourceRecords);
            }
        }
        return ControllerResult.of(records, results);
    }

    private static ApiError alter(MetadataImage image, AlterConfigsResource request, List<MetadataRecord> out) {
        ConfigResource resource = request.resource();
        if (resource.type() != ConfigResourceType.CONFIG_RESOURCE_TOPIC) {
            return ApiError.of(ErrorCode.INVALID_REQUEST, "Only topic configs can be altered, not "
                    + resource.type() + ".");
        }
        if (image.topics().topic(resource.name()) == null) {
            return ApiError.of(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + resource.name()
                    + "' does not exist.");
        }
        for (AlterConfigOp op : request.ops()) {
            Optional<ApiError> bad = op.op() == OpType.SET ? TopicConfigCatalog.check(op.name(), op.value())
                    : TopicConfigCatalog.checkName(op.name());
            if (bad.isPresent()) {
                return bad.get();
            }
            ConfigRecord.Builder record = ConfigRecord.newBuilder().setResourceType(resource.type())
                    .setResourceName(resource.name()).setName(op.name());
            if (op.op() == OpType.SET) {
                record.setValue(op.value());
            }
            out.add(MetadataRecord.newBuilder().setConfig(record).build());
        }
        return ApiError.NONE;
    }
}

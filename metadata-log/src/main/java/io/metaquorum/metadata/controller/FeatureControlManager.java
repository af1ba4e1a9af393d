package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FeatureLevelRecord;
import io.metaquorum.protocol.MetadataRecord;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finalized feature levels (Kafka's {@code FeatureControlManager}): UpdateFeatures within
 * the levels this controller supports. A level of 0 removes a feature; {@code
 * metadata.version} may not go down (a downgrade would need its records rewritten).
 */
public final class FeatureControlManager {
    /** A feature's supported levels, both inclusive. */
    public record SupportedRange(int min, int max) {
    }

    private final ControllerState state;
    private final Map<String, SupportedRange> supported;

    public FeatureControlManager(ControllerState state, Map<String, SupportedRange> supported) {
        this.state = state;
        this.supported = Collections.unmodifiableMap(new TreeMap<>(supported));
    }

    /** Sets {@code name} to {@code level}; INVALID_UPDATE_VERSION when it is not supported. */
    public ControllerResult<ApiError> updateFeature(String name, int level) {
        SupportedRange range = supported.get(name);
        if (range == null) {
            return refused("The controller does not support the feature " + name + ".");
        }
        if (level != 0 && (level < range.min() || level > range.max())) {
            return refused("Invalid update version " + level + " for feature " + name + ". The controller supports "
                    + "levels " + range.min() + " to " + range.max() + ".");
        }
        MetadataImage image = state.image();
        int current = image.features().level(name).orElse(0);
        if (name.equals(MetadataRecordCodec.METADATA_VERSION_FEATURE) && level < current) {
            return refused("metadata.version may not be downgraded from " + current + " to " + level + ".");
        }
        if (level == current) {
            return ControllerResult.withoutRecords(ApiError.NONE);
        }
        return ControllerResult.of(List.of(MetadataRecord.newBuilder().setFeatureLevel(
                FeatureLevelRecord.newBuilder().setName(name).setFeatureLevel(level)).build()), ApiError.NONE);
    }

    private static ControllerResult<ApiError> refused(String message) {
        return ControllerResult.withoutRecords(ApiError.of(ErrorCode.INVALID_UPDATE_VERSION, message));
    }
}

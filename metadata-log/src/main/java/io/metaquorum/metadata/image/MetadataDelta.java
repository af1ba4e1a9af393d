package io.metaquorum.metadata.image;

import static io.metaquorum.metadata.image.TopicsReplay.check;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.record.RecordTypes;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.FeatureLevelRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RemoveAccessControlEntryRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;

/**
 * Collects replayed records on top of a base image and produces the next image (Kafka's
 * {@code MetadataDelta}): {@link #replay} each record in log order, then {@link #apply}. The
 * one replay path of controllers, standbys, brokers and snapshot loading.
 *
 * <p>Every record is validated against the state it follows; an impossible one throws
 * {@link InvalidRecordException} naming its offset, and the delta must then be dropped.
 * Dispatch is exhaustive over the closed record set (docs/engineering-rules.md rule 6): the switch has
 * no default, so a new record type does not compile until it is handled here.
 *
 * <p>Each replay moves persistent maps forward, so the cost is that of the change, not of
 * the image; the base image is never modified. The delta also notes which topics and
 * partitions its records touched ({@link #topicChanges}), so that what consumes the next image
 * can look at those alone.
 */
public final class MetadataDelta {
    /** The only record format version this code reads. */
    public static final int RECORD_VERSION = 0;

    private FeaturesImage features;
    private ClusterImage cluster;
    private TopicsImage topics;
    private ConfigurationsImage configs;
    private AclsImage acls;
    private ScramImage scram;
    private MetadataProvenance provenance;
    /** The topics the records replayed so far created, removed or changed; null unless {@link #recordingChanges}. */
    private final TopicChanges.Builder topicChanges;

    /** A delta that only replays: the controller's decision state, snapshot loads and tools need no change list. */
    public MetadataDelta(MetadataImage base) {
        this(base, null);
    }

    /** A delta that also lists the topics it changes ({@link #topicChanges}), for a loader that publishes them. */
    public static MetadataDelta recordingChanges(MetadataImage base) {
        return new MetadataDelta(base, new TopicChanges.Builder());
    }

    private MetadataDelta(MetadataImage base, TopicChanges.Builder topicChanges) {
        this.topicChanges = topicChanges;
        this.features = base.features();
        this.cluster = base.cluster();
        this.topics = base.topics();
        this.configs = base.configs();
        this.acls = base.acls();
        this.scram = base.scram();
        this.provenance = base.provenance();
    }

    /** The part of the image a record changes, as {@link #replay} reports it. */
    public enum ImagePart { FEATURES, CLUSTER, TOPICS, CONFIGS, ACLS, SCRAM, NONE }

    /**
     * Replays the data record at {@code offset} of {@code epoch}; returns the part of the
     * image it changed.
     */
    public ImagePart replay(MetadataRecord record, long offset, int epoch) {
        advanceTo(offset, epoch);
        String type = RecordTypes.typeName(record);
        check(record.getVersion() == RECORD_VERSION, offset, type, () -> "record version " + record.getVersion()
                + ", this node reads version " + RECORD_VERSION);
        return switch (record.getRecordCase()) {
            case TOPIC -> replayTopic(record.getTopic(), offset);
            case PARTITION -> replayPartition(record.getPartition(), offset);
            case PARTITION_CHANGE -> replayPartitionChange(record.getPartitionChange(), offset);
            case REMOVE_TOPIC -> replayRemoveTopic(record.getRemoveTopic(), offset);
            case CONFIG -> replayConfig(record.getConfig(), offset);
            case REGISTER_BROKER -> cluster(ClusterReplay.register(cluster, record.getRegisterBroker(), offset));
            case UNREGISTER_BROKER -> cluster(ClusterReplay.unregister(cluster, record.getUnregisterBroker(), offset));
            case FENCE_BROKER -> cluster(ClusterReplay.fence(cluster, record.getFenceBroker(), offset));
            case UNFENCE_BROKER -> cluster(ClusterReplay.unfence(cluster, record.getUnfenceBroker(), offset));
            case ACCESS_CONTROL_ENTRY -> replayAcl(record.getAccessControlEntry(), offset);
            case REMOVE_ACCESS_CONTROL_ENTRY -> replayRemoveAcl(record.getRemoveAccessControlEntry(), offset);
            case FEATURE_LEVEL -> replayFeatureLevel(record.getFeatureLevel(), offset);
            case USER_SCRAM_CREDENTIAL -> scram(ScramReplay.add(scram, record.getUserScramCredential(), offset));
            case REMOVE_USER_SCRAM_CREDENTIAL ->
                    scram(ScramReplay.remove(scram, record.getRemoveUserScramCredential(), offset));
            case NO_OP -> ImagePart.NONE;
            case RECORD_NOT_SET -> throw new InvalidRecordException(offset, type, "a MetadataRecord without a type");
        };
    }

    private ImagePart replayTopic(TopicRecord record, long offset) {
        topics = TopicsReplay.topic(topics, record, offset);
        if (topicChanges != null) {
            topicChanges.whole(UuidKey.of(record.getTopicId()));
        }
        return ImagePart.TOPICS;
    }

    private ImagePart replayPartition(PartitionRecord record, long offset) {
        topics = TopicsReplay.partition(topics, record, offset);
        if (topicChanges != null) {
            topicChanges.partition(UuidKey.of(record.getTopicId()), record.getPartition());
        }
        return ImagePart.TOPICS;
    }

    private ImagePart replayPartitionChange(PartitionChangeRecord record, long offset) {
        topics = TopicsReplay.partitionChange(topics, record, offset);
        if (topicChanges != null) {
            topicChanges.partition(UuidKey.of(record.getTopicId()), record.getPartition());
        }
        return ImagePart.TOPICS;
    }

    private ImagePart scram(ScramImage next) {
        scram = next;
        return ImagePart.SCRAM;
    }

    private ImagePart cluster(ClusterImage next) {
        cluster = next;
        return ImagePart.CLUSTER;
    }

    /**
     * Moves the provenance to a record that is not a metadata record (raft's control
     * records) or to the end of a loaded snapshot.
     */
    public void advanceTo(long offset, int epoch) {
        check(offset > provenance.lastOffset() && epoch >= provenance.lastEpoch(), offset, "record",
                () -> "offset " + offset + " of epoch " + epoch + " does not follow offset " + provenance.lastOffset()
                        + " of epoch " + provenance.lastEpoch());
        provenance = new MetadataProvenance(offset, epoch);
    }

    private ImagePart replayRemoveTopic(RemoveTopicRecord record, long offset) {
        TopicImage topic = TopicsReplay.removeTopic(topics, record, offset);
        topics = topics.withoutTopic(topic);
        configs = configs.withoutResource(ConfigResource.topic(topic.name()));
        if (topicChanges != null) {
            topicChanges.whole(topic.id());
        }
        return ImagePart.TOPICS;
    }

    private ImagePart replayConfig(ConfigRecord record, long offset) {
        String type = "ConfigRecord";
        ConfigResourceType resourceType = record.getResourceType();
        check(resourceType == ConfigResourceType.CONFIG_RESOURCE_TOPIC
                || resourceType == ConfigResourceType.CONFIG_RESOURCE_BROKER, offset, type,
                () -> "unknown resource type " + record.getResourceTypeValue());
        check(!record.getName().isEmpty(), offset, type, "empty config name");
        if (resourceType == ConfigResourceType.CONFIG_RESOURCE_TOPIC) {
            check(topics.topic(record.getResourceName()) != null, offset, type,
                    () -> "config " + record.getName() + " of unknown topic '" + record.getResourceName() + "'");
        }
        ConfigResource resource = new ConfigResource(resourceType, record.getResourceName());
        configs = configs.withConfig(resource, record.getName(), record.hasValue() ? record.getValue() : null);
        return ImagePart.CONFIGS;
    }

    private ImagePart replayAcl(AccessControlEntryRecord record, long offset) {
        acls = AclReplay.add(acls, record, offset);
        return ImagePart.ACLS;
    }

    private ImagePart replayRemoveAcl(RemoveAccessControlEntryRecord record, long offset) {
        acls = AclReplay.remove(acls, record, offset);
        return ImagePart.ACLS;
    }

    private ImagePart replayFeatureLevel(FeatureLevelRecord record, long offset) {
        String type = "FeatureLevelRecord";
        check(!record.getName().isEmpty(), offset, type, "empty feature name");
        check(record.getFeatureLevel() >= 0, offset, type, () -> "negative level " + record.getFeatureLevel());
        features = features.withLevel(record.getName(), record.getFeatureLevel());
        return ImagePart.FEATURES;
    }

    /** The image after every record replayed so far. The delta may go on replaying. */
    public MetadataImage apply() {
        return new MetadataImage(provenance, features, cluster, topics, configs, acls, scram);
    }

    /**
     * The topics created, removed or changed by the records replayed so far: from the base
     * image to {@link #apply()}'s. The delta may go on replaying. Only a delta made by
     * {@link #recordingChanges} lists them.
     */
    public TopicChanges topicChanges() {
        Invariants.check(topicChanges != null, "this delta does not record its topic changes");
        return topicChanges.build();
    }
}

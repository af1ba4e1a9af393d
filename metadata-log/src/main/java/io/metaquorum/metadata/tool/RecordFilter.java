package io.metaquorum.metadata.tool;

import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Which records {@code mq-metadata dump} prints: by record type ({@code --type}) and by topic
 * ({@code --topic NAME|ID}). Shown every record in log order, since the topic filter is
 * stateful: it learns a topic's id from its TopicRecord and then follows the id across
 * PartitionRecords, PartitionChangeRecords and the RemoveTopicRecord, and the name across
 * ConfigRecords of the topic resource. A topic deleted and created again under the same name
 * is followed under both ids.
 */
public final class RecordFilter {
    /** Every record type name {@code --type} accepts (RecordTypes' names). */
    public static final List<String> TYPES = List.of("TopicRecord", "PartitionRecord", "PartitionChangeRecord",
            "RemoveTopicRecord", "ConfigRecord", "RegisterBrokerRecord", "UnregisterBrokerRecord",
            "FenceBrokerRecord", "UnfenceBrokerRecord", "AccessControlEntryRecord",
            "RemoveAccessControlEntryRecord", "FeatureLevelRecord", "NoOpRecord", "UserScramCredentialRecord",
            "RemoveUserScramCredentialRecord", "LeaderChangeRecord",
            "SnapshotHeaderRecord", "SnapshotFooterRecord");
    public static final RecordFilter ALL = new RecordFilter(null, null);

    private final String type;
    private final String topic;
    private final UuidKey topicId;
    /** The ids of the topics followed so far. */
    private final TreeSet<UuidKey> followedIds = new TreeSet<>();
    /** The name of the topic given by id, once its TopicRecord was seen (configs are filed by name). */
    private String learntName;

    private RecordFilter(String type, String topic) {
        this.type = type;
        this.topic = topic;
        this.topicId = topic == null ? null : parseId(topic);
    }

    /**
     * A filter for {@code type} (a name of {@link #TYPES}, any case, "Record" optional) and
     * {@code topic} (a name or a 22-character id); null means no filter. Throws
     * {@link IllegalArgumentException} for an unknown type.
     */
    public static RecordFilter of(String type, String topic) {
        return new RecordFilter(type == null ? null : canonicalType(type), topic);
    }

    static String canonicalType(String given) {
        String wanted = given.toLowerCase(Locale.ROOT);
        for (String name : TYPES) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals(wanted) || lower.equals(wanted + "record")) {
                return name;
            }
        }
        throw new IllegalArgumentException("unknown record type '" + given + "'; one of " + String.join(", ", TYPES));
    }

    /** Whether to print {@code record}; call it for every record in log order. */
    public boolean accept(DecodedRecord record) {
        boolean topicMatches = topic == null || followsTopic(record.metadata());
        return topicMatches && acceptsType(record.type());
    }

    /** Whether a record of type {@code typeName} passes the type filter (the topic filter aside). */
    public boolean acceptsType(String typeName) {
        return type == null || type.equals(typeName);
    }

    public boolean filtersTopic() {
        return topic != null;
    }

    private boolean followsTopic(MetadataRecord record) {
        if (record == null) {
            return false;
        }
        return switch (record.getRecordCase()) {
            case TOPIC -> {
                UuidKey id = UuidKey.of(record.getTopic().getTopicId());
                if (record.getTopic().getName().equals(topic) || id.equals(topicId)) {
                    followedIds.add(id);
                    if (id.equals(topicId)) {
                        learntName = record.getTopic().getName();
                    }
                    yield true;
                }
                yield false;
            }
            case PARTITION -> followed(record.getPartition().getTopicId());
            case PARTITION_CHANGE -> followed(record.getPartitionChange().getTopicId());
            case REMOVE_TOPIC -> followed(record.getRemoveTopic().getTopicId());
            case CONFIG -> record.getConfig().getResourceType() == ConfigResourceType.CONFIG_RESOURCE_TOPIC
                    && record.getConfig().getResourceName().equals(topicName());
            case REGISTER_BROKER, UNREGISTER_BROKER, FENCE_BROKER, UNFENCE_BROKER, ACCESS_CONTROL_ENTRY,
                 REMOVE_ACCESS_CONTROL_ENTRY, FEATURE_LEVEL, NO_OP, USER_SCRAM_CREDENTIAL,
                 REMOVE_USER_SCRAM_CREDENTIAL, RECORD_NOT_SET -> false;
        };
    }

    private boolean followed(Uuid id) {
        UuidKey key = UuidKey.of(id);
        return followedIds.contains(key) || key.equals(topicId);
    }

    /** The name configs are filed under: the one given, or the one learnt for the id given. */
    private String topicName() {
        return learntName != null ? learntName : topic;
    }

    private static UuidKey parseId(String text) {
        if (text.length() != 22) {
            return null;
        }
        try {
            return UuidKey.of(TopicIds.fromBase64(text));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

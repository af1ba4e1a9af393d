package io.metaquorum.metadata.record;

import com.google.protobuf.Message;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.MetadataRecord;

/**
 * The printed name and the body of each record type, as tools show them ({@code TopicRecord},
 * {@code LeaderChangeRecord}, ...). The switches are exhaustive over the closed record sets
 * (docs/engineering-rules.md rule 6): a new record type fails to compile here until it is named.
 */
public final class RecordTypes {
    private RecordTypes() {
    }

    public static String typeName(MetadataRecord record) {
        return switch (record.getRecordCase()) {
            case TOPIC -> "TopicRecord";
            case PARTITION -> "PartitionRecord";
            case PARTITION_CHANGE -> "PartitionChangeRecord";
            case REMOVE_TOPIC -> "RemoveTopicRecord";
            case CONFIG -> "ConfigRecord";
            case REGISTER_BROKER -> "RegisterBrokerRecord";
            case UNREGISTER_BROKER -> "UnregisterBrokerRecord";
            case FENCE_BROKER -> "FenceBrokerRecord";
            case UNFENCE_BROKER -> "UnfenceBrokerRecord";
            case ACCESS_CONTROL_ENTRY -> "AccessControlEntryRecord";
            case REMOVE_ACCESS_CONTROL_ENTRY -> "RemoveAccessControlEntryRecord";
            case FEATURE_LEVEL -> "FeatureLevelRecord";
            case NO_OP -> "NoOpRecord";
            case USER_SCRAM_CREDENTIAL -> "UserScramCredentialRecord";
            case REMOVE_USER_SCRAM_CREDENTIAL -> "RemoveUserScramCredentialRecord";
            case RECORD_NOT_SET -> "UnknownRecord";
        };
    }

    public static String typeName(ControlRecord record) {
        return switch (record.getRecordCase()) {
            case LEADER_CHANGE -> "LeaderChangeRecord";
            case SNAPSHOT_HEADER -> "SnapshotHeaderRecord";
            case SNAPSHOT_FOOTER -> "SnapshotFooterRecord";
            case KRAFT_VERSION -> "KRaftVersionRecord";
            case VOTERS -> "VotersRecord";
            case RECORD_NOT_SET -> "UnknownControlRecord";
        };
    }

    /** The message inside the oneof: what {@code dump} prints as the record body. */
    public static Message body(MetadataRecord record) {
        return switch (record.getRecordCase()) {
            case TOPIC -> record.getTopic();
            case PARTITION -> record.getPartition();
            case PARTITION_CHANGE -> record.getPartitionChange();
            case REMOVE_TOPIC -> record.getRemoveTopic();
            case CONFIG -> record.getConfig();
            case REGISTER_BROKER -> record.getRegisterBroker();
            case UNREGISTER_BROKER -> record.getUnregisterBroker();
            case FENCE_BROKER -> record.getFenceBroker();
            case UNFENCE_BROKER -> record.getUnfenceBroker();
            case ACCESS_CONTROL_ENTRY -> record.getAccessControlEntry();
            case REMOVE_ACCESS_CONTROL_ENTRY -> record.getRemoveAccessControlEntry();
            case FEATURE_LEVEL -> record.getFeatureLevel();
            case NO_OP -> record.getNoOp();
            case USER_SCRAM_CREDENTIAL -> record.getUserScramCredential();
            case REMOVE_USER_SCRAM_CREDENTIAL -> record.getRemoveUserScramCredential();
            case RECORD_NOT_SET -> record;
        };
    }

    public static Message body(ControlRecord record) {
        return switch (record.getRecordCase()) {
            case LEADER_CHANGE -> record.getLeaderChange();
            case SNAPSHOT_HEADER -> record.getSnapshotHeader();
            case SNAPSHOT_FOOTER -> record.getSnapshotFooter();
            case KRAFT_VERSION -> record.getKraftVersion();
            case VOTERS -> record.getVoters();
            case RECORD_NOT_SET -> record;
        };
    }
}

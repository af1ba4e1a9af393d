package io.metaquorum.bench;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;

/**
 * The image of {@code mq-bench authorize}: topics named {@code team-T.svc-S.events-I} (20
 * teams, S services per team, 10 topics per service, 10 partitions each) and, for one
 * principal, ACLs as a platform team writes them: per topic LITERAL READ, WRITE and
 * DESCRIBE_CONFIGS, a LITERAL DENY ALTER on every other topic, PREFIXED READ, WRITE, DESCRIBE
 * and CREATE per service and DESCRIBE and ALTER_CONFIGS per team, a few PREFIXED DENY DESCRIBE
 * on services, LITERAL READ on a consumer group per topic, and LITERAL WRITE on
 * transactional ids to reach the ACL count. Built without randomness: the same on every run.
 */
final class AuthorizeAcls {
    static final String PRINCIPAL = "User:app";
    static final String HOST = "10.0.0.7";
    static final int TEAMS = 20;
    static final int TOPICS_PER_SERVICE = 10;
    static final int PARTITIONS_PER_TOPIC = 10;

    private AuthorizeAcls() {
    }

    static String topic(int team, int service, int index) {
        return "team-" + team + ".svc-" + service + ".events-" + index;
    }

    /** The records of the topics and their partitions (one replica each: the describe reads no placement). */
    static List<MetadataRecord> topicRecords(int topics) {
        List<MetadataRecord> records = new ArrayList<>();
        int servicesPerTeam = servicesPerTeam(topics);
        int made = 0;
        for (int team = 0; team < TEAMS && made < topics; team++) {
            for (int service = 0; service < servicesPerTeam && made < topics; service++) {
                for (int i = 0; i < TOPICS_PER_SERVICE && made < topics; i++, made++) {
                    var id = TopicIds.uuid(1, made + 1);
                    records.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder()
                            .setName(topic(team, service, i)).setTopicId(id)).build());
                    for (int p = 0; p < PARTITIONS_PER_TOPIC; p++) {
                        records.add(MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder()
                                .setTopicId(id).setPartition(p).addReplicas(1).addIsr(1).setLeader(1)).build());
                    }
                }
            }
        }
        return records;
    }

    static int servicesPerTeam(int topics) {
        return Math.max(1, topics / (TEAMS * TOPICS_PER_SERVICE));
    }

    /** Exactly {@code count} ACL records for {@link #PRINCIPAL} over {@code topics} topics. */
    static List<MetadataRecord> aclRecords(int topics, int count) {
        List<MetadataRecord> acls = new ArrayList<>(count);
        int servicesPerTeam = servicesPerTeam(topics);
        for (int team = 0; team < TEAMS; team++) {
            String teamPrefix = "team-" + team + ".";
            add(acls, ResourceType.TOPIC, teamPrefix, PatternType.PREFIXED, AclOperation.DESCRIBE, PermissionType.ALLOW);
            add(acls, ResourceType.TOPIC, teamPrefix, PatternType.PREFIXED, AclOperation.ALTER_CONFIGS,
                    PermissionType.ALLOW);
            for (int service = 0; service < servicesPerTeam; service++) {
                String servicePrefix = teamPrefix + "svc-" + service + ".";
                for (AclOperation op : List.of(AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE,
                        AclOperation.CREATE)) {
                    add(acls, ResourceType.TOPIC, servicePrefix, PatternType.PREFIXED, op, PermissionType.ALLOW);
                }
                if (service % 7 == 3) {
                    add(acls, ResourceType.TOPIC, servicePrefix, PatternType.PREFIXED, AclOperation.DESCRIBE,
                            PermissionType.DENY);
                }
            }
        }
        int made = 0;
        for (int team = 0; team < TEAMS && made < topics; team++) {
            for (int service = 0; service < servicesPerTeam && made < topics; service++) {
                for (int i = 0; i < TOPICS_PER_SERVICE && made < topics; i++, made++) {
                    String name = topic(team, service, i);
                    for (AclOperation op : List.of(AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE_CONFIGS)) {
                        add(acls, ResourceType.TOPIC, name, PatternType.LITERAL, op, PermissionType.ALLOW);
                    }
                    if (made % 2 == 0) {
                        add(acls, ResourceType.TOPIC, name, PatternType.LITERAL, AclOperation.ALTER, PermissionType.DENY);
                    }
                    add(acls, ResourceType.GROUP, name + "-consumer", PatternType.LITERAL, AclOperation.READ,
                            PermissionType.ALLOW);
                }
            }
        }
        for (int i = 0; acls.size() < count; i++) {
            add(acls, ResourceType.TRANSACTIONAL_ID, "tx-" + i, PatternType.LITERAL, AclOperation.WRITE,
                    PermissionType.ALLOW);
        }
        return acls.subList(0, count);
    }

    private static void add(List<MetadataRecord> acls, ResourceType type, String name, PatternType pattern,
                            AclOperation op, PermissionType permission) {
        acls.add(MetadataRecord.newBuilder().setAccessControlEntry(AccessControlEntryRecord.newBuilder()
                .setId(TopicIds.uuid(2, acls.size() + 1)).setResourceType(type.code()).setResourceName(name)
                .setPatternType(pattern.code()).setPrincipal(PRINCIPAL).setHost("*").setOperation(op.code())
                .setPermissionType(permission.code())).build());
    }
}

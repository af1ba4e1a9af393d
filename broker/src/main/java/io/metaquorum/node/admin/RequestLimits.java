package io.metaquorum.node.admin;

import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.ConfigOperation;
import io.metaquorum.protocol.ControlledShutdownRequest;
import io.metaquorum.protocol.CreatableReplicaAssignment;
import com.google.protobuf.ByteString;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicConfig;
import io.metaquorum.protocol.CreatePartitionsAssignment;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import io.metaquorum.protocol.TopicRef;
import java.util.List;
import java.util.Optional;

/**
 * The edge checks (docs/engineering-rules.md: "validate at the edge" and rule 8): counts, string sizes and
 * ids a request must respect before anything else looks at it. A violation is a message
 * naming the field, answered as a request-level INVALID_REQUEST. What the controller checks
 * per topic (names up to 249 characters, partition and replication counts, configs) is left
 * to it, so that it answers per topic; these limits only keep absurd requests out.
 */
public final class RequestLimits {
    /** Topics (or resources) in one request. */
    public static final int ENTRIES_PER_REQUEST_MAX = 10_000;
    /** Partitions in one topic's manual assignment. */
    public static final int ASSIGNMENTS_PER_TOPIC_MAX = 10_000;
    /** Brokers in one partition's assignment (the largest replication factor). */
    public static final int REPLICAS_PER_PARTITION_MAX = 32_767;
    /** Configs (or config keys) per topic or resource. */
    public static final int CONFIGS_PER_RESOURCE_MAX = 1_000;
    /** Listeners of one broker. */
    public static final int LISTENERS_PER_BROKER_MAX = 64;
    /** Characters in any one string (names, values, hosts). */
    public static final int STRING_CHARS_MAX = 32 * 1024;
    /** Partitions in one page of a paged DescribeTopics ({@code response_partition_limit}). */
    public static final int DESCRIBE_PAGE_PARTITIONS_MAX = 10_000;
    /** The page of a paged DescribeTopics that gives a cursor but no limit (Kafka's default, 2,000). */
    public static final int DESCRIBE_PAGE_PARTITIONS_DEFAULT = 2_000;

    /**
     * Bytes of a SCRAM salt or salted password: Kafka's client sends a 32-byte salt and a
     * 32- or 64-byte salted password, so this only keeps absurd ones out.
     */
    public static final int SCRAM_BYTES_MAX = 1_024;

    private RequestLimits() {
    }

    static Optional<String> check(CreateTopicsRequest request) {
        Optional<String> bad = count("topics", request.getTopicsCount(), ENTRIES_PER_REQUEST_MAX);
        for (int i = 0; i < request.getTopicsCount() && bad.isEmpty(); i++) {
            bad = check("topics[" + i + "]", request.getTopics(i));
        }
        return bad;
    }

    private static Optional<String> check(String field, CreatableTopic topic) {
        Optional<String> bad = string(field + ".name", topic.getName())
                .or(() -> count(field + ".assignments", topic.getAssignmentsCount(), ASSIGNMENTS_PER_TOPIC_MAX))
                .or(() -> count(field + ".configs", topic.getConfigsCount(), CONFIGS_PER_RESOURCE_MAX));
        for (int i = 0; i < topic.getAssignmentsCount() && bad.isEmpty(); i++) {
            CreatableReplicaAssignment a = topic.getAssignments(i);
            bad = brokerIds(field + ".assignments[" + i + "].broker_ids", a.getBrokerIdsList());
        }
        for (int i = 0; i < topic.getConfigsCount() && bad.isEmpty(); i++) {
            CreatableTopicConfig c = topic.getConfigs(i);
            String f = field + ".configs[" + i + "]";
            bad = string(f + ".name", c.getName()).or(() -> string(f + ".value", c.getValue()));
        }
        return bad;
    }

    static Optional<String> check(DeleteTopicsRequest request) {
        return count("topics", request.getTopicsCount(), ENTRIES_PER_REQUEST_MAX)
                .or(() -> topicRefs("topics", request.getTopicsList()));
    }

    static Optional<String> check(DescribeTopicsRequest request) {
        return count("topics", request.getTopicsCount(), ENTRIES_PER_REQUEST_MAX)
                .or(() -> topicRefs("topics", request.getTopicsList()))
                .or(() -> paging(request));
    }

    /** A page's limit and cursor: only for a describe of every topic, within bounds. */
    private static Optional<String> paging(DescribeTopicsRequest request) {
        if (!request.hasResponsePartitionLimit() && !request.hasCursor()) {
            return Optional.empty();
        }
        if (request.getTopicsCount() > 0) {
            return Optional.of("response_partition_limit and cursor page a describe of every topic; topics has "
                    + request.getTopicsCount() + " entries, it must be empty.");
        }
        int limit = request.getResponsePartitionLimit();
        if (request.hasResponsePartitionLimit() && (limit < 1 || limit > DESCRIBE_PAGE_PARTITIONS_MAX)) {
            return Optional.of("response_partition_limit is " + limit + "; it must be between 1 and "
                    + DESCRIBE_PAGE_PARTITIONS_MAX + ".");
        }
        int index = request.getCursor().getPartitionIndex();
        return string("cursor.topic_name", request.getCursor().getTopicName())
                .or(() -> index < 0 ? Optional.of("cursor.partition_index is " + index
                        + "; a partition index is not negative.") : Optional.empty());
    }

    static Optional<String> check(CreatePartitionsRequest request) {
        Optional<String> bad = count("topics", request.getTopicsCount(), ENTRIES_PER_REQUEST_MAX);
        for (int i = 0; i < request.getTopicsCount() && bad.isEmpty(); i++) {
            CreatePartitionsTopic topic = request.getTopics(i);
            String field = "topics[" + i + "]";
            bad = string(field + ".name", topic.getName())
                    .or(() -> count(field + ".assignments", topic.getAssignmentsCount(), ASSIGNMENTS_PER_TOPIC_MAX));
            for (int j = 0; j < topic.getAssignmentsCount() && bad.isEmpty(); j++) {
                CreatePartitionsAssignment a = topic.getAssignments(j);
                bad = brokerIds(field + ".assignments[" + j + "].broker_ids", a.getBrokerIdsList());
            }
        }
        return bad;
    }

    static Optional<String> check(DescribeConfigsRequest request) {
        Optional<String> bad = count("resources", request.getResourcesCount(), ENTRIES_PER_REQUEST_MAX);
        for (int i = 0; i < request.getResourcesCount() && bad.isEmpty(); i++) {
            DescribeConfigsResource r = request.getResources(i);
            String field = "resources[" + i + "]";
            bad = string(field + ".resource_name", r.getResourceName()).or(() -> count(field
                    + ".configuration_keys", r.getConfigurationKeysCount(), CONFIGS_PER_RESOURCE_MAX));
            for (int j = 0; j < r.getConfigurationKeysCount() && bad.isEmpty(); j++) {
                bad = string(field + ".configuration_keys[" + j + "]", r.getConfigurationKeys(j));
            }
        }
        return bad;
    }

    static Optional<String> check(IncrementalAlterConfigsRequest request) {
        Optional<String> bad = count("resources", request.getResourcesCount(), ENTRIES_PER_REQUEST_MAX);
        for (int i = 0; i < request.getResourcesCount() && bad.isEmpty(); i++) {
            AlterConfigsResource r = request.getResources(i);
            String field = "resources[" + i + "]";
            bad = string(field + ".resource_name", r.getResourceName())
                    .or(() -> count(field + ".configs", r.getConfigsCount(), CONFIGS_PER_RESOURCE_MAX));
            for (int j = 0; j < r.getConfigsCount() && bad.isEmpty(); j++) {
                bad = check(field + ".configs[" + j + "]", r.getConfigs(j));
            }
        }
        return bad;
    }

    private static Optional<String> check(String field, AlterableConfig config) {
        if (config.getConfigOperation() != ConfigOperation.SET && config.getConfigOperation() != ConfigOperation.DELETE) {
            return Optional.of(field + ".config_operation " + config.getConfigOperation()
                    + " is not supported; use SET or DELETE.");
        }
        return string(field + ".name", config.getName()).or(() -> string(field + ".value", config.getValue()));
    }

    /** Counts and string sizes; what makes an ACL valid is the controller's to answer per creation. */
    static Optional<String> check(CreateAclsRequest request) {
        Optional<String> bad = count("creations", request.getCreationsCount(), ENTRIES_PER_REQUEST_MAX);
        for (int i = 0; i < request.getCreationsCount() && bad.isEmpty(); i++) {
            AclCreation c = request.getCreations(i);
            String field = "creations[" + i + "]";
            bad = string(field + ".resource_name", c.getResourceName())
                    .or(() -> string(field + ".principal", c.getPrincipal()))
                    .or(() -> string(field + ".host", c.getHost()));
        }
        return bad;
    }

    static Optional<String> check(DescribeAclsRequest request) {
        return aclFilter("filter", request.getFilter());
    }

    static Optional<String> check(DeleteAclsRequest request) {
        Optional<String> bad = count("filters", request.getFiltersCount(), ENTRIES_PER_REQUEST_MAX);
        for (int i = 0; i < request.getFiltersCount() && bad.isEmpty(); i++) {
            bad = aclFilter("filters[" + i + "]", request.getFilters(i));
        }
        return bad;
    }

    static Optional<String> check(AlterUserScramCredentialsRequest request) {
        Optional<String> bad = count("deletions", request.getDeletionsCount(), ENTRIES_PER_REQUEST_MAX)
                .or(() -> count("upsertions", request.getUpsertionsCount(), ENTRIES_PER_REQUEST_MAX));
        for (int i = 0; i < request.getDeletionsCount() && bad.isEmpty(); i++) {
            bad = string("deletions[" + i + "].name", request.getDeletions(i).getName());
        }
        for (int i = 0; i < request.getUpsertionsCount() && bad.isEmpty(); i++) {
            ScramCredentialUpsertion u = request.getUpsertions(i);
            String field = "upsertions[" + i + "]";
            bad = string(field + ".name", u.getName()).or(() -> bytes(field + ".salt", u.getSalt()))
                    .or(() -> bytes(field + ".salted_password", u.getSaltedPassword()));
        }
        return bad;
    }

    static Optional<String> check(DescribeUserScramCredentialsRequest request) {
        Optional<String> bad = count("users", request.getUsersCount(), ENTRIES_PER_REQUEST_MAX);
        for (int i = 0; i < request.getUsersCount() && bad.isEmpty(); i++) {
            bad = string("users[" + i + "]", request.getUsers(i));
        }
        return bad;
    }

    private static Optional<String> bytes(String field, ByteString value) {
        return value.size() > SCRAM_BYTES_MAX ? Optional.of(field + " has " + value.size() + " bytes; at most "
                + SCRAM_BYTES_MAX + " are allowed.") : Optional.empty();
    }

    private static Optional<String> aclFilter(String field, AclFilter filter) {
        return string(field + ".resource_name", filter.getResourceName())
                .or(() -> string(field + ".principal", filter.getPrincipal()))
                .or(() -> string(field + ".host", filter.getHost()));
    }

    static Optional<String> check(BrokerRegistrationRequest request) {
        Optional<String> bad = brokerId("broker_id", request.getBrokerId())
                .or(() -> string("cluster_id", request.getClusterId()))
                .or(() -> string("rack", request.getRack()))
                .or(() -> request.hasIncarnationId() ? Optional.empty() : Optional.of("incarnation_id is missing."))
                .or(() -> count("listeners", request.getListenersCount(), LISTENERS_PER_BROKER_MAX));
        for (int i = 0; i < request.getListenersCount() && bad.isEmpty(); i++) {
            BrokerEndpoint e = request.getListeners(i);
            String field = "listeners[" + i + "]";
            bad = string(field + ".name", e.getName()).or(() -> string(field + ".host", e.getHost()))
                    .or(() -> e.getPort() < 0 || e.getPort() > 65_535
                            ? Optional.of(field + ".port " + e.getPort() + " is not a TCP port.") : Optional.empty());
        }
        return bad;
    }

    static Optional<String> check(BrokerHeartbeatRequest request) {
        return brokerId("broker_id", request.getBrokerId());
    }

    static Optional<String> check(ControlledShutdownRequest request) {
        return brokerId("broker_id", request.getBrokerId());
    }

    private static Optional<String> topicRefs(String field, List<TopicRef> refs) {
        for (int i = 0; i < refs.size(); i++) {
            TopicRef ref = refs.get(i);
            if (ref.getRefCase() == TopicRef.RefCase.REF_NOT_SET) {
                return Optional.of(field + "[" + i + "] names neither a topic name nor a topic id.");
            }
            if (ref.hasName() && ref.getName().length() > STRING_CHARS_MAX) {
                return string(field + "[" + i + "].name", ref.getName());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> brokerIds(String field, List<Integer> ids) {
        Optional<String> bad = count(field, ids.size(), REPLICAS_PER_PARTITION_MAX);
        for (int i = 0; i < ids.size() && bad.isEmpty(); i++) {
            bad = brokerId(field + "[" + i + "]", ids.get(i));
        }
        return bad;
    }

    private static Optional<String> brokerId(String field, int id) {
        return id < 0 ? Optional.of(field + " is " + id + "; a broker id is not negative.") : Optional.empty();
    }

    private static Optional<String> count(String field, int count, int max) {
        return count > max ? Optional.of(field + " has " + count + " entries; at most " + max + " are allowed.")
                : Optional.empty();
    }

    private static Optional<String> string(String field, String value) {
        return value.length() > STRING_CHARS_MAX ? Optional.of(field + " has " + value.length()
                + " characters; at most " + STRING_CHARS_MAX + " are allowed.") : Optional.empty();
    }
}

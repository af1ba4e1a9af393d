package io.metaquorum.server.admin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.CreateAclsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The requests of {@link KafkaApiAuthorizationTableTest}, each turning what alice gets back into
 * one line: {@code NONE} or Kafka's error name for a whole request, {@code name=CODE} per entry
 * in request order. Through Kafka's Admin client unless the probe says "raw".
 */
final class KafkaApiProbes {
    private KafkaApiProbes() {
    }

    /** Alice's view of one request. */
    @FunctionalInterface
    interface Observation {
        String observe(KafkaAuthzCluster cluster, Admin alice) throws Exception;
    }

    /** A named request, sent to the controller's listener or to the forwarding broker's. */
    record Probe(String name, boolean viaBroker, Observation observation) {
        String observe(KafkaAuthzCluster cluster, Admin alice) throws Exception {
            return observation.observe(cluster, alice);
        }

        Probe viaTheBroker() {
            return new Probe(name + " via broker", true, observation);
        }
    }

    static Probe apiVersionsRaw() {
        return new Probe("raw ApiVersions", false, (c, a) -> Errors.forCode(c.<ApiVersionsResponse>raw(
                new ApiVersionsRequest.Builder().build(ApiKeys.API_VERSIONS.latestVersion())).data().errorCode())
                .name());
    }

    /** Metadata for named topics: each one's code, and whether a refused one's id was zeroed. */
    static Probe metadataRaw(String... topics) {
        return new Probe("raw Metadata " + String.join(",", topics), false, (c, a) -> {
            MetadataResponse answer = c.raw(new MetadataRequest.Builder(List.of(topics), false)
                    .build(ApiKeys.METADATA.latestVersion()));
            List<String> out = new ArrayList<>();
            for (String topic : topics) {
                MetadataResponseTopic t = answer.data().topics().find(topic);
                String code = Errors.forCode(t.errorCode()).name();
                out.add(topic + "=" + code + (t.errorCode() != 0 && Uuid.ZERO_UUID.equals(t.topicId()) ? "/id0" : ""));
            }
            return String.join(" ", out);
        });
    }

    /** listTopics (Metadata for every topic): the names listed. */
    static Probe listTopics() {
        return new Probe("listTopics", false, (c, a) -> "listed=" + new TreeSet<>(a.listTopics().names().get()));
    }

    /** describeTopics by name (DescribeTopicPartitions). */
    static Probe describeTopics(String... topics) {
        return new Probe("describeTopics " + String.join(",", topics), false,
                (c, a) -> perEntry(List.of(topics), a.describeTopics(List.of(topics)).topicNameValues()));
    }

    /** describeTopics asking for authorized operations: each topic's outcome and the operations given. */
    static Probe describeTopicsWithOperations(String... topics) {
        return new Probe("describeTopics with authorized operations " + String.join(",", topics), false, (c, a) -> {
            var values = a.describeTopics(List.of(topics), new DescribeTopicsOptions()
                    .includeAuthorizedOperations(true)).topicNameValues();
            List<String> out = new ArrayList<>();
            for (String topic : topics) {
                String described = outcome(values.get(topic));
                out.add(topic + "=" + described + (described.equals("NONE") ? " ops="
                        + names(values.get(topic).get().authorizedOperations()) : ""));
            }
            return String.join(" ", out);
        });
    }

    private static String names(java.util.Set<AclOperation> operations) {
        return operations == null ? "null"
                : operations.stream().map(Enum::name).sorted().collect(Collectors.joining(",", "[", "]"));
    }

    static Probe describeCluster() {
        return new Probe("describeCluster with authorized operations", false, (c, a) -> {
            var answer = a.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true));
            return outcome(answer.clusterId()) + " ops=" + names(answer.authorizedOperations().get());
        });
    }

    /** createTopics: each topic's outcome, and for a created one whether its configs were shown. */
    static Probe createTopics(boolean validateOnly, String... topics) {
        return new Probe((validateOnly ? "createTopics validateOnly " : "createTopics ") + String.join(",", topics),
                false, (c, a) -> {
                    List<NewTopic> news = new ArrayList<>();
                    for (String topic : topics) {
                        news.add(new NewTopic(topic, 1, (short) 1));
                    }
                    CreateTopicsResult result = a.createTopics(news, new CreateTopicsOptions()
                            .validateOnly(validateOnly));
                    List<String> out = new ArrayList<>();
                    for (String topic : topics) {
                        String created = outcome(result.values().get(topic));
                        out.add(topic + "=" + created + (created.equals("NONE") ? "/configs="
                                + outcome(result.config(topic)) : ""));
                    }
                    return String.join(" ", out);
                });
    }

    static Probe deleteTopics(String... topics) {
        return new Probe("deleteTopics " + String.join(",", topics), false,
                (c, a) -> perEntry(List.of(topics), a.deleteTopics(List.of(topics)).topicNameValues()));
    }

    static Probe createPartitions(String... topics) {
        return new Probe("createPartitions to 2 " + String.join(",", topics), false, (c, a) -> {
            Map<String, NewPartitions> grow = new java.util.LinkedHashMap<>();
            for (String topic : topics) {
                grow.put(topic, NewPartitions.increaseTo(2));
            }
            return perEntry(List.of(topics), a.createPartitions(grow).values());
        });
    }

    static Probe listPartitionReassignments() {
        return new Probe("listPartitionReassignments", false,
                (c, a) -> outcome(a.listPartitionReassignments().reassignments()));
    }

    /** describeConfigs of {@code type} resources {@code names}. */
    static Probe describeConfigs(ConfigResource.Type type, String... names) {
        return new Probe("describeConfigs " + type + " " + String.join(",", names), false, (c, a) -> {
            List<ConfigResource> resources = new ArrayList<>();
            for (String name : names) {
                resources.add(new ConfigResource(type, name));
            }
            var values = a.describeConfigs(resources).values();
            return String.join(" ", resources.stream().map(r -> r.name() + "=" + outcome(values.get(r))).toList());
        });
    }

    /** incrementalAlterConfigs: SET retention.ms on topics. */
    static Probe alterTopicConfigs(String... topics) {
        return alterConfigs(ConfigResource.Type.TOPIC, "retention.ms", topics);
    }

    /** incrementalAlterConfigs: SET {@code key} on {@code type} resources {@code names}. */
    static Probe alterConfigs(ConfigResource.Type type, String key, String... names) {
        return new Probe("incrementalAlterConfigs " + type + " " + String.join(",", names), false, (c, a) -> {
            Map<ConfigResource, Collection<AlterConfigOp>> changes = new java.util.LinkedHashMap<>();
            for (String name : names) {
                changes.put(new ConfigResource(type, name), List.of(new AlterConfigOp(
                        new ConfigEntry(key, "60000"), AlterConfigOp.OpType.SET)));
            }
            var values = a.incrementalAlterConfigs(changes).values();
            return String.join(" ", changes.keySet().stream().map(r -> r.name() + "=" + outcome(values.get(r)))
                    .toList());
        });
    }

    private static AclBinding readOnTopic(String topic) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry("User:CN=bob", "*", AclOperation.READ, AclPermissionType.ALLOW));
    }

    static Probe createAcls() {
        return new Probe("createAcls", false, (c, a) -> outcome(a.createAcls(List.of(readOnTopic("orders"))).all()));
    }

    /** A CreateAcls whose one creation is invalid (operation ANY): authorization is asked first. */
    static Probe createAclsInvalidRaw() {
        return new Probe("raw CreateAcls of an invalid ACL", false, (c, a) -> {
            CreateAclsRequestData data = new CreateAclsRequestData();
            data.creations().add(new CreateAclsRequestData.AclCreation().setResourceType(ResourceType.TOPIC.code())
                    .setResourceName("orders").setResourcePatternType(PatternType.LITERAL.code())
                    .setPrincipal("User:CN=bob").setHost("*").setOperation(AclOperation.ANY.code())
                    .setPermissionType(AclPermissionType.ALLOW.code()));
            CreateAclsResponse answer = c.raw(new CreateAclsRequest.Builder(data)
                    .build(ApiKeys.CREATE_ACLS.latestVersion()));
            return Errors.forCode(answer.data().results().get(0).errorCode()).name();
        });
    }

    static Probe describeAcls() {
        return new Probe("describeAcls", false, (c, a) -> outcome(a.describeAcls(AclBindingFilter.ANY).values()));
    }

    static Probe deleteAcls() {
        return new Probe("deleteAcls", false,
                (c, a) -> outcome(a.deleteAcls(List.of(readOnTopic("orders").toFilter())).all()));
    }

    static Probe describeQuorum() {
        return new Probe("describeMetadataQuorum", false, (c, a) -> outcome(a.describeMetadataQuorum().quorumInfo()));
    }

    private static String perEntry(List<String> names, Map<String, ? extends KafkaFuture<?>> futures) {
        return String.join(" ", names.stream().map(n -> n + "=" + outcome(futures.get(n))).toList());
    }

    /** NONE, or the name of Kafka's error for the exception the future failed with. */
    static String outcome(KafkaFuture<?> future) {
        try {
            future.get();
            return Errors.NONE.name();
        } catch (ExecutionException e) {
            return Errors.forException(e.getCause()).name();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

package io.metaquorum.server.admin;

import static io.metaquorum.server.admin.KafkaApiProbes.alterConfigs;
import static io.metaquorum.server.admin.KafkaApiProbes.alterTopicConfigs;
import static io.metaquorum.server.admin.KafkaApiProbes.apiVersionsRaw;
import static io.metaquorum.server.admin.KafkaApiProbes.createAcls;
import static io.metaquorum.server.admin.KafkaApiProbes.createAclsInvalidRaw;
import static io.metaquorum.server.admin.KafkaApiProbes.createPartitions;
import static io.metaquorum.server.admin.KafkaApiProbes.createTopics;
import static io.metaquorum.server.admin.KafkaApiProbes.deleteAcls;
import static io.metaquorum.server.admin.KafkaApiProbes.deleteTopics;
import static io.metaquorum.server.admin.KafkaApiProbes.describeAcls;
import static io.metaquorum.server.admin.KafkaApiProbes.describeCluster;
import static io.metaquorum.server.admin.KafkaApiProbes.describeConfigs;
import static io.metaquorum.server.admin.KafkaApiProbes.describeQuorum;
import static io.metaquorum.server.admin.KafkaApiProbes.describeTopics;
import static io.metaquorum.server.admin.KafkaApiProbes.describeTopicsWithOperations;
import static io.metaquorum.server.admin.KafkaApiProbes.listPartitionReassignments;
import static io.metaquorum.server.admin.KafkaApiProbes.listTopics;
import static io.metaquorum.server.admin.KafkaApiProbes.metadataRaw;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.security.TestPki;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka's own way of proving authorization (its AuthorizerIntegrationTest), for every API the
 * Kafka-protocol listener serves: each row sends one request as {@code User:CN=alice} (a
 * client certificate on an SSL listener) holding exactly the ACLs the row names, and compares
 * what comes back, entry by entry, with what Kafka 4.4.0 answers under its StandardAuthorizer
 * with {@code allow.everyone.if.no.acl.found=false}: no ACL (Kafka's denial, in Kafka's shape),
 * the minimal ACL (allowed), near misses (a right that sounds close but is not the one), and
 * mixed batches. Most rows go through Kafka's own Admin client over the socket; the rows whose
 * point is a field the client hides send Kafka's generated request to the node's handlers; the
 * rows marked "via broker" go to a broker that forwards the write to the controller, which
 * decides it with alice's principal. The probes are {@link KafkaApiProbes}; a row is
 * {@code api, acls, probe, expected}, each ACL "PERMISSION OPERATION TYPE name" (LITERAL, or
 * "name*" for a PREFIXED name), all for alice from any host. DELETE on the cluster is granted as
 * ALL: our controller refuses an ACL of an operation its resource type has no use for.
 */
class KafkaApiAuthorizationTableTest {
    @TempDir
    static Path dir;
    private static Path trust;
    private static Path nodeKeyStore;
    private static Path aliceKeyStore;

    /** One request and what Kafka answers it. */
    record Row(String api, String acls, KafkaApiProbes.Probe probe, String expected) {
        @Override
        public String toString() {
            return api + " with [" + acls + "] " + probe.name();
        }
    }

    private static Row row(String api, String acls, KafkaApiProbes.Probe probe, String expected) {
        return new Row(api, acls, probe, expected);
    }

    private static final String TAF = "TOPIC_AUTHORIZATION_FAILED";
    private static final String CAF = "CLUSTER_AUTHORIZATION_FAILED";
    private static final String CLUSTER = " CLUSTER kafka-cluster";
    private static final ConfigResource.Type TOPIC = ConfigResource.Type.TOPIC;
    private static final ConfigResource.Type BROKER = ConfigResource.Type.BROKER;
    private static final ConfigResource.Type BROKER_LOGGER = ConfigResource.Type.BROKER_LOGGER;
    private static final ConfigResource.Type GROUP = ConfigResource.Type.GROUP;

    static Stream<Row> matrix() {
        return Stream.of(
                row("ApiVersions", "", apiVersionsRaw(), "NONE"),

                row("Metadata", "", metadataRaw("orders", "ghost"), "orders=" + TAF + "/id0 ghost=" + TAF + "/id0"),
                row("Metadata", "ALLOW DESCRIBE TOPIC orders", metadataRaw("orders", "ghost"),
                        "orders=NONE ghost=" + TAF + "/id0"),
                row("Metadata", "ALLOW DESCRIBE TOPIC *", metadataRaw("orders", "ghost"),
                        "orders=NONE ghost=UNKNOWN_TOPIC_OR_PARTITION/id0"),
                row("Metadata", "ALLOW ALTER TOPIC orders", metadataRaw("orders"), "orders=NONE"),
                row("Metadata", "ALLOW CREATE TOPIC orders", metadataRaw("orders"), "orders=" + TAF + "/id0"),
                row("Metadata", "ALLOW DESCRIBE_CONFIGS TOPIC orders", metadataRaw("orders"), "orders=" + TAF + "/id0"),
                row("Metadata", "ALLOW ALTER_CONFIGS TOPIC orders", metadataRaw("orders"), "orders=" + TAF + "/id0"),
                row("Metadata", "", listTopics(), "listed=[]"),
                row("Metadata", "ALLOW DESCRIBE TOPIC orders", listTopics(), "listed=[orders]"),
                row("Metadata", "ALLOW DESCRIBE TOPIC *; DENY DESCRIBE TOPIC payments", listTopics(), "listed=[orders]"),

                row("DescribeCluster", "", describeCluster(), "NONE ops=[]"),
                row("DescribeCluster", "ALLOW DESCRIBE" + CLUSTER, describeCluster(), "NONE ops=[DESCRIBE]"),
                row("DescribeCluster", "ALLOW ALTER" + CLUSTER, describeCluster(), "NONE ops=[ALTER,DESCRIBE]"),

                row("CreateTopics", "", createTopics(false, "new-a"), "new-a=" + TAF),
                row("CreateTopics", "ALLOW CREATE TOPIC new-a", createTopics(false, "new-a"), "new-a=NONE/configs=" + TAF),
                row("CreateTopics", "ALLOW CREATE TOPIC new-a; ALLOW DESCRIBE_CONFIGS TOPIC new-a",
                        createTopics(false, "new-a"), "new-a=NONE/configs=NONE"),
                row("CreateTopics", "ALLOW CREATE" + CLUSTER, createTopics(false, "new-a"), "new-a=NONE/configs=" + TAF),
                row("CreateTopics", "ALLOW CREATE" + CLUSTER + "; DENY CREATE TOPIC new-a", createTopics(false, "new-a"),
                        "new-a=NONE/configs=" + TAF),
                row("CreateTopics", "ALLOW DESCRIBE TOPIC new-a", createTopics(false, "new-a"), "new-a=" + TAF),
                row("CreateTopics", "ALLOW ALTER TOPIC new-a", createTopics(false, "new-a"), "new-a=" + TAF),
                row("CreateTopics", "", createTopics(false, "orders"), "orders=" + TAF),
                row("CreateTopics", "ALLOW CREATE TOPIC orders", createTopics(false, "orders"),
                        "orders=TOPIC_ALREADY_EXISTS"),
                row("CreateTopics", "", createTopics(true, "new-a"), "new-a=" + TAF),
                row("CreateTopics", "ALLOW CREATE TOPIC new-a", createTopics(true, "new-a"), "new-a=NONE/configs=" + TAF),
                row("CreateTopics", "ALLOW CREATE TOPIC new-*", createTopics(false, "new-a", "other"),
                        "new-a=NONE/configs=" + TAF + " other=" + TAF),
                row("CreateTopics", "", createTopics(false, "new-a").viaTheBroker(), "new-a=" + TAF),
                row("CreateTopics", "", createTopics(false, "orders").viaTheBroker(), "orders=" + TAF),
                row("CreateTopics", "ALLOW CREATE TOPIC new-*", createTopics(false, "new-a", "other").viaTheBroker(),
                        "new-a=NONE/configs=" + TAF + " other=" + TAF),

                row("DeleteTopics", "", deleteTopics("orders"), "orders=" + TAF),
                row("DeleteTopics", "ALLOW DESCRIBE TOPIC orders", deleteTopics("orders"), "orders=" + TAF),
                row("DeleteTopics", "ALLOW DELETE TOPIC orders", deleteTopics("orders"), "orders=NONE"),
                row("DeleteTopics", "ALLOW DELETE TOPIC orders; DENY DESCRIBE TOPIC orders", deleteTopics("orders"),
                        "orders=" + TAF),
                row("DeleteTopics", "ALLOW ALL" + CLUSTER, deleteTopics("orders"), "orders=NONE"),
                row("DeleteTopics", "ALLOW ALL" + CLUSTER + "; DENY DELETE TOPIC orders", deleteTopics("orders"),
                        "orders=NONE"),
                row("DeleteTopics", "", deleteTopics("ghost"), "ghost=" + TAF),
                row("DeleteTopics", "", deleteTopics("ghost", "orders").viaTheBroker(), "ghost=" + TAF + " orders=" + TAF),
                row("DeleteTopics", "ALLOW DELETE TOPIC *", deleteTopics("ghost"), "ghost=UNKNOWN_TOPIC_OR_PARTITION"),
                row("DeleteTopics", "ALLOW DESCRIBE TOPIC ghost", deleteTopics("ghost"),
                        "ghost=UNKNOWN_TOPIC_OR_PARTITION"),
                row("DeleteTopics", "ALLOW DELETE TOPIC orders", deleteTopics("orders", "payments"),
                        "orders=NONE payments=" + TAF),
                row("DeleteTopics", "ALLOW DELETE TOPIC orders", deleteTopics("orders", "payments").viaTheBroker(),
                        "orders=NONE payments=" + TAF),

                row("CreatePartitions", "", createPartitions("orders"), "orders=" + TAF),
                row("CreatePartitions", "ALLOW ALTER TOPIC orders", createPartitions("orders"), "orders=NONE"),
                row("CreatePartitions", "ALLOW ALTER_CONFIGS TOPIC orders", createPartitions("orders"), "orders=" + TAF),
                row("CreatePartitions", "ALLOW ALTER" + CLUSTER, createPartitions("orders"), "orders=" + TAF),
                row("CreatePartitions", "ALLOW ALTER TOPIC *", createPartitions("ghost"),
                        "ghost=UNKNOWN_TOPIC_OR_PARTITION"),
                row("CreatePartitions", "ALLOW ALTER TOPIC orders", createPartitions("orders", "payments"),
                        "orders=NONE payments=" + TAF),

                row("DescribeTopicPartitions", "", describeTopics("orders"), "orders=" + TAF),
                row("DescribeTopicPartitions", "ALLOW DESCRIBE TOPIC orders", describeTopics("orders"), "orders=NONE"),
                row("DescribeTopicPartitions", "ALLOW CREATE TOPIC orders", describeTopics("orders"), "orders=" + TAF),
                row("DescribeTopicPartitions", "ALLOW DESCRIBE_CONFIGS TOPIC orders", describeTopics("orders"),
                        "orders=" + TAF),
                row("DescribeTopicPartitions", "ALLOW ALTER_CONFIGS TOPIC orders", describeTopics("orders"),
                        "orders=" + TAF),
                row("DescribeTopicPartitions", "ALLOW DESCRIBE TOPIC orders", describeTopics("orders", "payments"),
                        "orders=NONE payments=" + TAF),
                row("DescribeTopicPartitions", "ALLOW DESCRIBE TOPIC orders", describeTopicsWithOperations("orders"),
                        "orders=NONE ops=[DESCRIBE]"),
                row("DescribeTopicPartitions", "ALLOW ALTER TOPIC orders; ALLOW ALTER_CONFIGS TOPIC orders",
                        describeTopicsWithOperations("orders"), "orders=NONE ops=[ALTER,ALTER_CONFIGS,DESCRIBE,"
                                + "DESCRIBE_CONFIGS]"),

                row("ListPartitionReassignments", "", listPartitionReassignments(), CAF),
                row("ListPartitionReassignments", "ALLOW DESCRIBE" + CLUSTER, listPartitionReassignments(), "NONE"),
                row("ListPartitionReassignments", "ALLOW ALTER" + CLUSTER, listPartitionReassignments(), "NONE"),
                row("ListPartitionReassignments", "ALLOW DESCRIBE TOPIC *", listPartitionReassignments(), CAF),

                row("DescribeConfigs", "", describeConfigs(TOPIC, "orders"), "orders=" + TAF),
                row("DescribeConfigs", "ALLOW DESCRIBE TOPIC orders", describeConfigs(TOPIC, "orders"), "orders=" + TAF),
                row("DescribeConfigs", "ALLOW DESCRIBE_CONFIGS TOPIC orders", describeConfigs(TOPIC, "orders"),
                        "orders=NONE"),
                row("DescribeConfigs", "ALLOW ALTER_CONFIGS TOPIC orders", describeConfigs(TOPIC, "orders"),
                        "orders=NONE"),
                row("DescribeConfigs", "ALLOW DESCRIBE_CONFIGS TOPIC orders", describeConfigs(TOPIC, "orders",
                        "payments"), "orders=NONE payments=" + TAF),
                row("DescribeConfigs", "", describeConfigs(BROKER, "1"), "1=" + CAF),
                row("DescribeConfigs", "ALLOW DESCRIBE" + CLUSTER, describeConfigs(BROKER, "1"), "1=" + CAF),
                row("DescribeConfigs", "ALLOW DESCRIBE_CONFIGS" + CLUSTER, describeConfigs(BROKER, "1"), "1=NONE"),
                row("DescribeConfigs", "", describeConfigs(BROKER_LOGGER, "1"), "1=" + CAF),
                row("DescribeConfigs", "", describeConfigs(GROUP, "app"), "app=GROUP_AUTHORIZATION_FAILED"),

                row("IncrementalAlterConfigs", "", alterTopicConfigs("orders"), "orders=" + TAF),
                row("IncrementalAlterConfigs", "ALLOW ALTER TOPIC orders", alterTopicConfigs("orders"), "orders=" + TAF),
                row("IncrementalAlterConfigs", "ALLOW DESCRIBE_CONFIGS TOPIC orders", alterTopicConfigs("orders"),
                        "orders=" + TAF),
                row("IncrementalAlterConfigs", "ALLOW ALTER_CONFIGS TOPIC orders", alterTopicConfigs("orders"),
                        "orders=NONE"),
                row("IncrementalAlterConfigs", "ALLOW ALTER_CONFIGS TOPIC orders", alterTopicConfigs("orders",
                        "payments"), "orders=NONE payments=" + TAF),
                row("IncrementalAlterConfigs", "ALLOW ALTER_CONFIGS TOPIC orders", alterTopicConfigs("orders",
                        "payments").viaTheBroker(), "orders=NONE payments=" + TAF),
                row("IncrementalAlterConfigs", "", alterConfigs(BROKER, "log.retention.ms", "1"), "1=" + CAF),
                row("IncrementalAlterConfigs", "ALLOW ALTER" + CLUSTER, alterConfigs(BROKER, "log.retention.ms", "1"),
                        "1=" + CAF),
                row("IncrementalAlterConfigs", "", alterConfigs(BROKER_LOGGER, "root", "1"), "1=" + CAF),

                row("CreateAcls", "", createAcls(), CAF),
                row("CreateAcls", "ALLOW ALTER" + CLUSTER, createAcls(), "NONE"),
                row("CreateAcls", "ALLOW DESCRIBE" + CLUSTER, createAcls(), CAF),
                row("CreateAcls", "ALLOW ALTER TOPIC *", createAcls(), CAF),
                row("CreateAcls", "", createAclsInvalidRaw(), CAF),
                row("CreateAcls", "ALLOW ALTER" + CLUSTER, createAclsInvalidRaw(), "INVALID_REQUEST"),
                row("CreateAcls", "ALLOW ALTER" + CLUSTER, createAcls().viaTheBroker(), "NONE"),

                row("DescribeAcls", "", describeAcls(), CAF),
                row("DescribeAcls", "ALLOW DESCRIBE" + CLUSTER, describeAcls(), "NONE"),
                row("DescribeAcls", "ALLOW ALTER" + CLUSTER, describeAcls(), "NONE"),
                row("DescribeAcls", "ALLOW DESCRIBE TOPIC *", describeAcls(), CAF),

                row("DeleteAcls", "", deleteAcls(), CAF),
                row("DeleteAcls", "ALLOW ALTER" + CLUSTER, deleteAcls(), "NONE"),
                row("DeleteAcls", "ALLOW DESCRIBE" + CLUSTER, deleteAcls(), CAF),
                row("DeleteAcls", "ALLOW ALTER TOPIC *", deleteAcls(), CAF),

                row("DescribeQuorum", "", describeQuorum(), CAF),
                row("DescribeQuorum", "ALLOW DESCRIBE" + CLUSTER, describeQuorum(), "NONE"),
                row("DescribeQuorum", "ALLOW ALTER" + CLUSTER, describeQuorum(), "NONE"),
                row("DescribeQuorum", "ALLOW DESCRIBE_CONFIGS" + CLUSTER, describeQuorum(), CAF));
    }

    @BeforeAll
    static void certificates() {
        TestPki pki = TestPki.create(dir, "authz-table-ca");
        trust = pki.trustStore("truststore.p12");
        nodeKeyStore = pki.nodeKeyStore("node-1");
        aliceKeyStore = pki.clientKeyStore("alice");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matrix")
    void answersAsKafkaDoes(Row row) throws Exception {
        try (KafkaAuthzCluster cluster = new KafkaAuthzCluster(trust, nodeKeyStore, aliceKeyStore)) {
            cluster.grant(acls(row.acls()));
            try (Admin alice = cluster.alice(row.probe().viaBroker())) {
                assertEquals(row.expected(), row.probe().observe(cluster, alice), row.toString());
            }
        }
    }

    /** "ALLOW DESCRIBE TOPIC orders; DENY CREATE TOPIC new*" as ACLs for alice. */
    static List<AclCreation> acls(String spec) {
        List<AclCreation> out = new ArrayList<>();
        for (String one : spec.split(";")) {
            if (one.isBlank()) {
                continue;
            }
            String[] words = one.trim().split(" ");
            String name = words[3];
            boolean prefixed = name.endsWith("*") && name.length() > 1;
            out.add(AclCreation.newBuilder().setPrincipal(KafkaAuthzCluster.ALICE).setHost("*")
                    .setPermissionType(PermissionType.valueOf(words[0]).code())
                    .setOperation(AclOperation.valueOf(words[1]).code())
                    .setResourceType(ResourceType.valueOf(words[2]).code())
                    .setResourceName(prefixed ? name.substring(0, name.length() - 1) : name)
                    .setPatternType((prefixed ? PatternType.PREFIXED : PatternType.LITERAL).code()).build());
        }
        return out;
    }
}

package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.client.AdminClient;
import io.metaquorum.net.HostPort;
import io.metaquorum.process.MetaquorumScripts.ToolRun;
import io.metaquorum.protocol.DescribedTopic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's own tools against a running {@code bin/mq-quickstart} (3 controllers + 3 brokers),
 * through the Kafka-protocol listener every node serves: the real {@link Admin} client of
 * kafka-clients 4.4.0 creates, lists, describes, grows, alters and deletes topics, manages
 * ACLs, and describes the cluster and the quorum; each refusal of a create, a partition
 * growth or a config change reaches it as the exception class Kafka's client raises for that
 * code; and Kafka's {@code TopicCommand} (what {@code kafka-topics.sh} runs), in a JVM of its
 * own, prints what {@code bin/mq-topics} prints. One cluster serves every test of the class;
 * every node it started is killed by the pid in its server.pid at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaAdminClientProcessTest {
    private static final long SCRIPT_WAIT_MS = 180_000;
    private static final long CALL_WAIT_S = 60;
    private static final int NODES = 6;
    private static final List<Integer> BROKERS = List.of(4, 5, 6);

    @TempDir
    static Path work;
    private final MetaquorumScripts scripts = MetaquorumScripts.ofThisCheckout();
    private Map<String, String> environment;
    private Admin admin;

    @BeforeAll
    void startQuickstart() {
        environment = Map.of("MQ_DATA_DIR", work.resolve("data").toString(),
                "MQ_BASE_PORT", Integer.toString(PreassignedPorts.freeBase(NODES)),
                "MQ_KAFKA_BASE_PORT", Integer.toString(PreassignedPorts.freeBase(NODES)),
                "MQ_METRICS_BASE_PORT", "off");
        ToolRun started = scripts.runScript(work, "start", SCRIPT_WAIT_MS, environment, "mq-quickstart", "start");
        assertEquals(0, started.exitCode(), started.out() + started.err());
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
        admin = Admin.create(properties);
    }

    @AfterAll
    void killWhatItStarted() throws IOException {
        if (admin != null) {
            admin.close();
        }
        for (int node = 1; node <= NODES; node++) {
            Path pidFile = work.resolve("data").resolve("node-" + node).resolve("server.pid");
            if (Files.exists(pidFile)) {
                long pid = Long.parseLong(Files.readString(pidFile).trim());
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private int kafkaPort(int node) {
        return Integer.parseInt(environment.get("MQ_KAFKA_BASE_PORT")) + node;
    }

    private String bootstrap() {
        return BROKERS.stream().map(id -> "127.0.0.1:" + kafkaPort(id)).collect(Collectors.joining(","));
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(CALL_WAIT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the admin call failed", e);
        }
    }

    private static Throwable failure(KafkaFuture<?> future) {
        try {
            future.get(CALL_WAIT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError("the admin call did not end", e);
        }
        throw new AssertionError("the admin call succeeded where a refusal was expected");
    }

    private TopicDescription describe(String topic) {
        return get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
    }

    @Test
    void theAdminClientCreatesListsDescribesGrowsAltersAndDeletesTopics() {
        NewTopic orders = new NewTopic("orders", 3, (short) 3).configs(Map.of("retention.ms", "3600000"));
        get(admin.createTopics(List.of(orders, new NewTopic("audit", Optional.empty(), Optional.empty()))).all());
        awaitEveryBroker("orders", 3);
        awaitEveryBroker("audit", 1);
        assertTrue(get(admin.listTopics().names()).containsAll(List.of("orders", "audit")));

        TopicDescription described = describe("orders");
        assertEquals(3, described.partitions().size(), described.toString());
        for (TopicPartitionInfo partition : described.partitions()) {
            assertEquals(3, partition.replicas().size(), partition.toString());
            assertTrue(partition.isr().contains(partition.leader()), "the leader is in sync: " + partition);
            assertTrue(BROKERS.contains(partition.leader().id()), "a broker leads: " + partition);
            assertEquals(kafkaPort(partition.leader().id()), partition.leader().port(),
                    "the leader at its Kafka-protocol listener: " + partition);
        }
        assertEquals(1, describe("audit").partitions().size(), "num.partitions, the default");

        get(admin.createPartitions(Map.of("orders", NewPartitions.increaseTo(5))).all());
        awaitEveryBroker("orders", 5);
        assertEquals(5, describe("orders").partitions().size());

        ConfigResource ordersConfig = new ConfigResource(ConfigResource.Type.TOPIC, "orders");
        get(admin.incrementalAlterConfigs(Map.of(ordersConfig, List.of(
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("retention.ms", null), AlterConfigOp.OpType.DELETE)))).all());
        Config config = eventually("orders' new configs", () -> get(admin.describeConfigs(List.of(ordersConfig))
                .all()).get(ordersConfig), seen -> "compact".equals(seen.get("cleanup.policy").value()));
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, config.get("cleanup.policy").source());
        assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, config.get("retention.ms").source(),
                "retention.ms back at its default: " + config.get("retention.ms"));

        get(admin.deleteTopics(List.of("orders", "audit")).all());
        awaitEveryBroker("orders", 0);
        awaitEveryBroker("audit", 0);
        Set<String> left = get(admin.listTopics().names());
        assertTrue(!left.contains("orders") && !left.contains("audit"), left.toString());
    }

    /** Each refusal Kafka's controller makes, as the exception Kafka's AdminClient raises for it. */
    @Test
    void everyRefusalReachesTheAdminClientAsTheExceptionKafkasClientRaises() {
        get(admin.createTopics(List.of(new NewTopic("taken", 2, (short) 3), new NewTopic("dot_ted", 1, (short) 1)))
                .all());
        Map<String, Supplier<KafkaFuture<?>>> calls = new LinkedHashMap<>();
        Map<String, Class<? extends Throwable>> expected = new LinkedHashMap<>();
        expect(calls, expected, "an existing name", TopicExistsException.class,
                () -> create(new NewTopic("taken", 1, (short) 1)));
        expect(calls, expected, "a name colliding by '.' and '_'", InvalidTopicException.class,
                () -> create(new NewTopic("dot.ted", 1, (short) 1)));
        expect(calls, expected, "an illegal character", InvalidTopicException.class,
                () -> create(new NewTopic("a/b", 1, (short) 1)));
        expect(calls, expected, "a name of 250 characters", InvalidTopicException.class,
                () -> create(new NewTopic("n".repeat(250), 1, (short) 1)));
        expect(calls, expected, "zero partitions", InvalidPartitionsException.class,
                () -> create(new NewTopic("zero", 0, (short) 1)));
        expect(calls, expected, "a replication factor above the brokers", InvalidReplicationFactorException.class,
                () -> create(new NewTopic("four", 1, (short) 4)));
        expect(calls, expected, "a replication factor of zero", InvalidReplicationFactorException.class,
                () -> create(new NewTopic("none", 1, (short) 0)));
        expect(calls, expected, "an assignment naming an unknown broker", InvalidReplicaAssignmentException.class,
                () -> create(new NewTopic("manual", Map.of(0, List.of(4, 99)))));
        expect(calls, expected, "an assignment naming a broker twice", InvalidReplicaAssignmentException.class,
                () -> create(new NewTopic("twice", Map.of(0, List.of(4, 4)))));
        expect(calls, expected, "an unknown config", InvalidConfigurationException.class,
                () -> create(new NewTopic("cfg", 1, (short) 1).configs(Map.of("no.such.config", "1"))));
        expect(calls, expected, "a config value of the wrong type", InvalidConfigurationException.class,
                () -> create(new NewTopic("cfg", 1, (short) 1).configs(Map.of("retention.ms", "soon"))));
        expect(calls, expected, "a config value out of range", InvalidConfigurationException.class,
                () -> create(new NewTopic("cfg", 1, (short) 1).configs(Map.of("min.insync.replicas", "0"))));
        expect(calls, expected, "fewer partitions than now", InvalidPartitionsException.class,
                () -> admin.createPartitions(Map.of("taken", NewPartitions.increaseTo(1))).all());
        expect(calls, expected, "as many partitions as now", InvalidPartitionsException.class,
                () -> admin.createPartitions(Map.of("taken", NewPartitions.increaseTo(2))).all());
        expect(calls, expected, "growing a topic that does not exist", UnknownTopicOrPartitionException.class,
                () -> admin.createPartitions(Map.of("absent", NewPartitions.increaseTo(3))).all());
        expect(calls, expected, "a new partition's assignment of the wrong size", InvalidReplicaAssignmentException.class,
                () -> admin.createPartitions(Map.of("taken", NewPartitions.increaseTo(3, List.of(List.of(4))))).all());
        ConfigResource taken = new ConfigResource(ConfigResource.Type.TOPIC, "taken");
        expect(calls, expected, "setting an unknown config", InvalidConfigurationException.class,
                () -> alter(taken, "no.such.config", "1"));
        expect(calls, expected, "setting a value of the wrong type", InvalidConfigurationException.class,
                () -> alter(taken, "retention.ms", "soon"));
        expect(calls, expected, "altering a topic that does not exist", UnknownTopicOrPartitionException.class,
                () -> alter(new ConfigResource(ConfigResource.Type.TOPIC, "absent"), "retention.ms", "1000"));
        expect(calls, expected, "describing a topic that does not exist", UnknownTopicOrPartitionException.class,
                () -> admin.describeTopics(List.of("absent")).allTopicNames());
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Supplier<KafkaFuture<?>>> call : calls.entrySet()) {
            Throwable raised = failure(call.getValue().get());
            if (!expected.get(call.getKey()).isInstance(raised)) {
                wrong.add(call.getKey() + ": expected " + expected.get(call.getKey()).getSimpleName() + ", got "
                        + raised);
            }
        }
        assertEquals(List.of(), wrong);
        Set<String> left = new TreeSet<>(get(admin.listTopics().names()));
        left.retainAll(List.of("dot.ted", "a/b", "zero", "four", "none", "manual", "twice", "cfg"));
        assertEquals(Set.of(), left, "no refused create left a topic behind");
    }

    private static void expect(Map<String, Supplier<KafkaFuture<?>>> calls, Map<String, Class<? extends Throwable>>
            expected, String what, Class<? extends Throwable> exception, Supplier<KafkaFuture<?>> call) {
        calls.put(what, call);
        expected.put(what, exception);
    }

    private KafkaFuture<Void> create(NewTopic topic) {
        return admin.createTopics(List.of(topic), new CreateTopicsOptions()).all();
    }

    private KafkaFuture<Void> alter(ConfigResource resource, String name, String value) {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = Map.of(resource,
                List.of(new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET)));
        return admin.incrementalAlterConfigs(ops).all();
    }

    @Test
    void theAdminClientManagesAclsAndDescribesTheClusterAndTheQuorum() {
        AclBinding readOrders = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders-", PatternType.PREFIXED),
                new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
        AclBinding denyHost = new AclBinding(new ResourcePattern(ResourceType.GROUP, "billing", PatternType.LITERAL),
                new AccessControlEntry("User:bob", "10.0.0.9", AclOperation.ALL, AclPermissionType.DENY));
        get(admin.createAcls(List.of(readOrders, denyHost)).all());
        awaitAcls(AclBindingFilter.ANY, Set.of(readOrders, denyHost));
        AclBindingFilter aliceOnTopics = new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC, null,
                PatternType.ANY), new AccessControlEntryFilter("User:alice", null, AclOperation.ANY,
                AclPermissionType.ANY));
        awaitAcls(aliceOnTopics, Set.of(readOrders));
        Collection<AclBinding> deleted = get(admin.deleteAcls(List.of(aliceOnTopics)).all());
        assertEquals(List.of(readOrders), List.copyOf(deleted), "DeleteAcls answers what it matched");
        awaitAcls(AclBindingFilter.ANY, Set.of(denyHost));
        get(admin.deleteAcls(List.of(AclBindingFilter.ANY)).all());

        DescribeClusterResult cluster = admin.describeCluster();
        assertEquals(BROKERS, get(cluster.nodes()).stream().map(Node::id).sorted().toList());
        for (Node node : get(cluster.nodes())) {
            assertEquals(kafkaPort(node.id()), node.port(), "each broker at its Kafka-protocol listener: " + node);
        }
        assertTrue(BROKERS.contains(get(cluster.controller()).id()), "the controller Kafka's client is given is one"
                + " of the brokers it can reach: " + get(cluster.controller()));
        assertTrue(!get(cluster.clusterId()).isEmpty());

        QuorumInfo quorum = get(admin.describeMetadataQuorum().quorumInfo());
        assertTrue(List.of(1, 2, 3).contains(quorum.leaderId()), quorum.toString());
        assertEquals(List.of(1, 2, 3), quorum.voters().stream().map(QuorumInfo.ReplicaState::replicaId).sorted()
                .toList(), quorum.toString());
        assertEquals(BROKERS, quorum.observers().stream().map(QuorumInfo.ReplicaState::replicaId).sorted().toList(),
                quorum.toString());
        assertTrue(quorum.highWatermark() > 0, quorum.toString());
    }

    /**
     * Waits until DescribeAcls answers {@code expected}: over Kafka's protocol an ACL change has
     * no commit offset for the client to carry (read your own writes is the gRPC API's), and
     * Kafka's client asks any broker, whose image may be a few records behind the controller's,
     * as with Kafka's own brokers. This waits on the answer, never on time.
     */
    private void awaitAcls(AclBindingFilter filter, Set<AclBinding> expected) {
        eventually("DescribeAcls " + filter + " answering " + expected,
                () -> Set.copyOf(get(admin.describeAcls(filter).values())), expected::equals);
    }

    /**
     * Waits until {@code read} gives what {@code done} accepts, and returns it; fails, naming
     * {@code what} and the last answer, after {@value #CALL_WAIT_S} s. It waits on state, never
     * on time.
     */
    private static <T> T eventually(String what, Supplier<T> read, Predicate<T> done) {
        long deadline = System.currentTimeMillis() + CALL_WAIT_S * 1_000;
        T last = read.get();
        while (!done.test(last)) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within " + CALL_WAIT_S + " s: " + what + "; last: " + last);
            }
            last = read.get();
        }
        return last;
    }

    /**
     * Waits until every broker's own image holds {@code topic} with {@code partitions}
     * partitions (0: holds no such topic), asking each over its gRPC listener: after that any
     * broker Kafka's client picks answers from an image that has the change. A write's answer
     * comes from the controller once committed; brokers replay the commit a moment later, as
     * Kafka's brokers do.
     */
    private void awaitEveryBroker(String topic, int partitions) {
        for (int broker : BROKERS) {
            HostPort address = new HostPort("127.0.0.1", Integer.parseInt(environment.get("MQ_BASE_PORT")) + broker);
            try (AdminClient client = AdminClient.connect(List.of(address))) {
                eventually("broker " + broker + " holding " + topic + " with " + partitions + " partitions",
                        () -> client.describeTopics(List.of(), CALL_WAIT_S * 1_000).stream()
                                .filter(described -> described.getName().equals(topic))
                                .mapToInt(DescribedTopic::getPartitionsCount).sum(),
                        count -> count == partitions);
            }
        }
    }

    private ToolRun kafkaTopics(String name, String... args) {
        List<String> command = new ArrayList<>(List.of("--bootstrap-server", bootstrap()));
        command.addAll(List.of(args));
        return KafkaToolJvm.run(work, name, "org.apache.kafka.tools.TopicCommand", command);
    }

    private ToolRun mqTopics(String name, String... args) {
        List<String> command = new ArrayList<>(List.of("--bootstrap-server", "127.0.0.1:"
                + (Integer.parseInt(environment.get("MQ_BASE_PORT")) + 4)));
        command.addAll(List.of(args));
        return scripts.runTool(work, name, 60_000, "mq-topics", command.toArray(String[]::new));
    }

    /**
     * What Kafka's TopicCommand prints for a partition where bin/mq-topics prints the same line:
     * against a cluster that answers DescribeTopicPartitions (Kafka 4.x, and this listener) it
     * adds the eligible-leader columns, empty here as on a Kafka cluster without ELR enabled.
     */
    private static String withElrColumns(String mqTopicsDescribe) {
        return mqTopicsDescribe.replaceAll("(\tIsr: [0-9,]*)\n", "$1\tElr: \tLastKnownElr: \n");
    }

    /** kafka-topics.sh's verbs through Kafka's own TopicCommand, each answered as bin/mq-topics answers it. */
    @Test
    void kafkaTopicsCommandRunsEveryVerbAndPrintsWhatMqTopicsPrints() {
        ToolRun created = kafkaTopics("kt-create", "--create", "--topic", "kt-events", "--partitions", "3",
                "--replication-factor", "3", "--config", "retention.ms=7200000");
        assertEquals(0, created.exitCode(), created.out() + created.err());
        assertEquals("Created topic kt-events.\n", created.out());
        awaitEveryBroker("kt-events", 3);

        ToolRun listed = kafkaTopics("kt-list", "--list");
        assertEquals(0, listed.exitCode(), listed.err());
        assertEquals(mqTopics("mq-list", "--list").out(), listed.out());

        ToolRun described = kafkaTopics("kt-describe", "--describe", "--topic", "kt-events");
        assertEquals(0, described.exitCode(), described.err());
        assertEquals(withElrColumns(mqTopics("mq-describe", "--describe", "--topic", "kt-events").out()),
                described.out());

        ToolRun altered = kafkaTopics("kt-alter", "--alter", "--topic", "kt-events", "--partitions", "4");
        assertEquals(0, altered.exitCode(), altered.out() + altered.err());
        awaitEveryBroker("kt-events", 4);
        assertEquals(withElrColumns(mqTopics("mq-describe-4", "--describe", "--topic", "kt-events").out()),
                kafkaTopics("kt-describe-4", "--describe", "--topic", "kt-events").out());

        ToolRun refused = kafkaTopics("kt-create-again", "--create", "--topic", "kt-events", "--partitions", "1",
                "--replication-factor", "1");
        assertEquals(1, refused.exitCode(), refused.out() + refused.err());
        assertTrue(refused.out().contains("TopicExistsException") || refused.err().contains("TopicExistsException"),
                refused.out() + refused.err());

        ToolRun deleted = kafkaTopics("kt-delete", "--delete", "--topic", "kt-events");
        assertEquals(0, deleted.exitCode(), deleted.out() + deleted.err());
        awaitEveryBroker("kt-events", 0);
        assertTrue(!kafkaTopics("kt-list-after", "--list").out().contains("kt-events"));
    }

    /**
     * The same TopicCommand lines as against Kafka 4.4.0 itself (recorded in
     * {@code kafka-4.4.0/topic-command.txt}), where only ids and placement may differ.
     */
    @Test
    void kafkaTopicsCommandPrintsWhatItPrintsAgainstKafka() {
        RecordedKafkaOutput kafka = RecordedKafkaOutput.load("kafka-4.4.0/topic-command.txt");
        assertEquals(kafka.section("create"), RecordedKafkaOutput.masked(kafkaTopics("golden-create", "--create",
                "--topic", "golden", "--partitions", "3", "--replication-factor", "2", "--config",
                "cleanup.policy=compact").out()));
        awaitEveryBroker("golden", 3);
        assertEquals(kafka.section("create-exists"), RecordedKafkaOutput.masked(kafkaTopics("golden-exists",
                "--create", "--topic", "golden", "--partitions", "3", "--replication-factor", "2").out()));
        assertEquals(kafka.section("describe"), RecordedKafkaOutput.masked(kafkaTopics("golden-describe",
                "--describe", "--topic", "golden").out()));
        assertEquals(kafka.section("alter"), kafkaTopics("golden-alter", "--alter", "--topic", "golden",
                "--partitions", "4").out());
        awaitEveryBroker("golden", 4);
        assertEquals(kafka.section("describe2"), RecordedKafkaOutput.masked(kafkaTopics("golden-describe2",
                "--describe", "--topic", "golden").out()));
        assertEquals(kafka.section("delete"), kafkaTopics("golden-delete", "--delete", "--topic", "golden").out());
        awaitEveryBroker("golden", 0);
        assertEquals(kafka.section("describe-missing"), kafkaTopics("golden-missing", "--describe", "--topic",
                "nope").out());
    }
}

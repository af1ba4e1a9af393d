package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.process.MetaquorumScripts.ToolRun;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/mq-quickstart} itself: start, status, kill -9 of all six nodes, start
 * again on the same data dir, {@code mq-metadata verify / dump / shell} on the data dirs of
 * running nodes, stop. Its nodes listen on MQ_BASE_PORT+1..+6 of 127.0.0.1, a
 * base whose six ports were free a moment before ({@link PreassignedPorts}: the script fixes
 * every node's port in advance). Every node it started is killed by the pid in its server.pid
 * at the end, whatever happened.
 */
class QuickstartProcessTest {
    private static final long SCRIPT_WAIT_MS = 180_000;
    private static final int NODES = 6;
    private static final Pattern PARTITION = Pattern.compile(
            "\\tTopic: (\\S+)\\tPartition: (\\d+)\\tLeader: (-?\\d+)\\tReplicas: ([\\d,]+)\\tIsr: ([\\d,]*)");
    private static final Pattern TOPIC_ID = Pattern.compile("Topic: (\\S+)\\tTopicId: (\\S+)\\t");

    @TempDir
    Path work;
    private final MetaquorumScripts scripts = MetaquorumScripts.ofThisCheckout();
    private Map<String, String> environment;

    @AfterEach
    void killWhatItStarted() throws IOException {
        for (int node = 1; node <= NODES; node++) {
            Path pidFile = work.resolve("data").resolve("node-" + node).resolve("server.pid");
            if (Files.exists(pidFile)) {
                long pid = Long.parseLong(Files.readString(pidFile).trim());
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private ToolRun quickstart(String name, String... args) {
        return scripts.runScript(work, name, SCRIPT_WAIT_MS, environment, "mq-quickstart", args);
    }

    private ToolRun topics(int node, String... args) {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", "127.0.0.1:" + port(node)));
        all.addAll(List.of(args));
        return scripts.runTool(work, "topics-" + System.nanoTime(), 60_000, "mq-topics", all.toArray(String[]::new));
    }

    private int port(int node) {
        return Integer.parseInt(environment.get("MQ_BASE_PORT")) + node;
    }

    private int kafkaPort(int node) {
        return Integer.parseInt(environment.get("MQ_KAFKA_BASE_PORT")) + node;
    }

    /** Every node's Kafka-protocol listener answers ApiVersions, read with Kafka's own classes. */
    private void kafkaListenersAnswerApiVersions() throws IOException {
        for (int node = 1; node <= NODES; node++) {
            try (Socket socket = new Socket("127.0.0.1", kafkaPort(node))) {
                socket.setSoTimeout(30_000);
                RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, (short) 3, "quickstart-test", node);
                ByteBuffer payload = new ApiVersionsRequest.Builder().build((short) 3).serializeWithHeader(header);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeInt(payload.remaining());
                out.write(payload.array(), payload.arrayOffset() + payload.position(), payload.remaining());
                DataInputStream in = new DataInputStream(socket.getInputStream());
                byte[] answer = new byte[in.readInt()];
                in.readFully(answer);
                ApiVersionsResponse response = (ApiVersionsResponse) AbstractResponse.parseResponse(
                        ByteBuffer.wrap(answer), header);
                assertEquals(Errors.NONE.code(), response.data().errorCode(), "node " + node);
            }
        }
    }

    private Map<String, String> topicIds(int node) {
        Map<String, String> ids = new TreeMap<>();
        Matcher m = TOPIC_ID.matcher(topics(node, "--describe").out());
        while (m.find()) {
            ids.put(m.group(1), m.group(2));
        }
        return ids;
    }

    private String kafkaBootstrap() {
        return "127.0.0.1:" + kafkaPort(4) + ",127.0.0.1:" + kafkaPort(5) + ",127.0.0.1:" + kafkaPort(6);
    }

    /**
     * With {@code --sasl}, the brokers' Kafka-protocol listeners take SCRAM logins only: the
     * admin's (formatted into the controllers) and those added with Kafka's own
     * {@code kafka-configs.sh}; {@code kafka-topics.sh}'s verbs work logged in; a credential
     * outlives a kill -9 of every node.
     */
    @Test
    void startsThreeControllersAndThreeBrokersAndSurvivesAKillOfAllSix() throws Exception {
        environment = Map.of("MQ_DATA_DIR", work.resolve("data").toString(), "MQ_BASE_PORT",
                Integer.toString(PreassignedPorts.freeBase(NODES)), "MQ_METRICS_BASE_PORT",
                Integer.toString(PreassignedPorts.freeBase(NODES)), "MQ_KAFKA_BASE_PORT",
                Integer.toString(PreassignedPorts.freeBase(NODES)));
        ToolRun started = quickstart("start", "--sasl");
        assertEquals(0, started.exitCode(), started.out() + started.err());
        Path admin = work.resolve("data").resolve("kafka-client.properties");
        assertTrue(started.out().contains("Kafka clients: --bootstrap-server " + kafkaBootstrap()
                + " --command-config " + admin), started.out());
        kafkaListenersAnswerApiVersions();
        assertTrue(started.out().contains("Created topic demo."), started.out());
        assertTrue(started.out().contains("CurrentObservers:       [4,5,6]"), started.out());
        for (int node = 1; node <= NODES; node++) {
            String out = topics(node, "--describe", "--topic", "demo").out();
            Matcher m = PARTITION.matcher(out);
            int partitions = 0;
            while (m.find()) {
                partitions++;
                assertEquals(m.group(4), m.group(5), "node " + node + ": a full ISR: " + out);
                assertEquals(m.group(4).split(",")[0], m.group(3), "node " + node + ": the preferred leader: " + out);
            }
            assertEquals(3, partitions, "node " + node + " describes demo: " + out);
        }
        ToolRun status = quickstart("status", "status");
        assertEquals(0, status.exitCode(), status.err());
        assertTrue(status.out().contains("node 4 (broker): running, pid ") && status.out().contains("unfenced"),
                status.out());
        for (int i = 0; i < 6; i++) {
            assertEquals(0, topics(1 + i % NODES, "--create", "--topic", "k" + i, "--partitions", "2",
                    "--replication-factor", "3").exitCode());
        }
        KafkaToolsOverSecurity kafka = new KafkaToolsOverSecurity(work, kafkaBootstrap());
        kafka.topicVerbsWork(admin, "over-scram");
        Path alice = kafka.addScramUser(admin, "alice", "alice-secret");
        ToolRun wrong = kafka.run(KafkaToolsOverSecurity.TOPICS, kafka.scramConfig(admin, "alice", "not-hers",
                "SCRAM-SHA-256"), "--list");
        assertEquals(1, wrong.exitCode(), wrong.out() + wrong.err());
        assertTrue(wrong.out().contains("Authentication failed"), wrong.out());
        Map<String, String> before = topicIds(1);
        assertEquals(7, before.size(), before.toString());
        killAllByPid();
        ToolRun again = quickstart("restart", "start");
        assertEquals(0, again.exitCode(), again.out() + again.err());
        assertEquals(clusterId(started.out()), clusterId(again.out()), "the same cluster, not a new one");
        for (int node = 1; node <= NODES; node++) {
            assertEquals(before, topicIds(node), "node " + node + " after kill -9 of all six and a restart");
        }
        inspectRunningNodesDataDirs(before);
        ToolRun aliceAgain = kafka.run(KafkaToolsOverSecurity.TOPICS, alice, "--list");
        assertEquals(0, aliceAgain.exitCode(), "alice's credential outlives the kill: " + aliceAgain.err());
        ToolRun stopped = quickstart("stop", "stop");
        assertEquals(0, stopped.exitCode(), stopped.err());
        assertTrue(stopped.out().contains("stopped node 6") && stopped.out().contains("stopped node 1"),
                stopped.out());
    }

    @Test
    void secureStartsTheSameClusterWithTlsEverywhereAndWritesTheAdminsClientConfig() throws Exception {
        environment = Map.of("MQ_DATA_DIR", work.resolve("data").toString(), "MQ_BASE_PORT",
                Integer.toString(PreassignedPorts.freeBase(NODES + 1)), "MQ_METRICS_BASE_PORT",
                Integer.toString(PreassignedPorts.freeBase(NODES)), "MQ_KAFKA_BASE_PORT",
                Integer.toString(PreassignedPorts.freeBase(NODES + 1)));
        ToolRun started = quickstart("start-secure", "--secure");
        assertEquals(0, started.exitCode(), started.out() + started.err());
        assertTrue(started.out().contains("Created topic demo."), started.out());
        Path clientConfig = work.resolve("data").resolve("client.properties");
        assertTrue(started.out().contains("--command-config " + clientConfig), started.out());
        String properties = Files.readString(work.resolve("data").resolve("node-1").resolve("server.properties"));
        assertTrue(properties.contains("listeners=CONTROLLER://127.0.0.1:" + port(1) + ",EXTERNAL://127.0.0.1:"
                + kafkaPort(1)) && properties.contains("listener.security.protocol.map=CONTROLLER:SSL,EXTERNAL:SSL")
                && properties.contains("ssl.client.auth=required"), properties);
        ToolRun withCertificate = topics(4, "--command-config", clientConfig.toString(), "--describe", "--topic",
                "demo");
        assertEquals(0, withCertificate.exitCode(), withCertificate.err());
        assertTrue(withCertificate.out().contains("Topic: demo\t"), withCertificate.out());
        ToolRun status = quickstart("status-secure", "status");
        assertEquals(0, status.exitCode(), status.err());
        assertTrue(status.out().contains("node 6 (broker): running, pid ") && status.out().contains("LeaderId:"),
                "status finds the client config by itself: " + status.out());
        kafkasAdminClientWorksOverSslWithTheAdminsCertificateOnly(clientConfig);
        new KafkaToolsOverSecurity(work, kafkaBootstrap()).topicVerbsWork(clientConfig, "tool-over-ssl");
        anOrdinaryUserNeedsAnAclOnBrokersAndControllers(clientConfig);
        aNodeCertificateWithoutClusterActionCannotJoin(clientConfig);
        ToolRun plaintext = quickstart("start-again", "start");
        assertEquals(0, plaintext.exitCode(), plaintext.err());
        assertTrue(plaintext.out().contains("already running"), "the data dir stays secure: " + plaintext.out());
        ToolRun stopped = quickstart("stop-secure", "stop");
        assertEquals(0, stopped.exitCode(), stopped.err());
        assertTrue(stopped.out().contains("stopped node 6") && stopped.out().contains("stopped node 1"),
                stopped.out());
    }

    /**
     * Kafka's own Admin client, given the very file the tools take (its keys are Kafka's), works
     * against the brokers' SSL Kafka-protocol listeners; without a client certificate the
     * handshake is refused, as the gRPC listener refuses it.
     */
    private void kafkasAdminClientWorksOverSslWithTheAdminsCertificateOnly(Path adminConfig) throws Exception {
        Properties withCertificate = new Properties();
        try (Reader reader = Files.newBufferedReader(adminConfig)) {
            withCertificate.load(reader);
        }
        String bootstrap = "127.0.0.1:" + kafkaPort(4) + ",127.0.0.1:" + kafkaPort(5);
        withCertificate.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(withCertificate)) {
            admin.createTopics(List.of(new NewTopic("over-ssl", 2, (short) 3))).all().get(60, TimeUnit.SECONDS);
            assertEquals(2, admin.describeTopics(List.of("over-ssl")).allTopicNames().get(60, TimeUnit.SECONDS)
                    .get("over-ssl").partitions().size());
            assertTrue(admin.listTopics().names().get(60, TimeUnit.SECONDS).contains("demo"));
        }
        Properties withoutCertificate = new Properties();
        withoutCertificate.putAll(withCertificate);
        withoutCertificate.keySet().removeIf(key -> key.toString().startsWith("ssl.keystore."));
        withoutCertificate.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        withoutCertificate.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        try (Admin stranger = Admin.create(withoutCertificate)) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> stranger.listTopics().names().get(60, TimeUnit.SECONDS));
            assertInstanceOf(SslAuthenticationException.class, refused.getCause(), refused.toString());
        }
    }

    /**
     * The secure quickstart has the authorizer on: alice (a certificate of the same CA, not a
     * super user) may create nothing, through a broker or a controller, until the admin grants
     * CREATE on the prefix alice-. Before she tries again, each node she will call must show
     * the ACL in its own image (DescribeAcls answers from it): separate processes share no
     * read-your-writes offset, and this waits on that state, not on time.
     */
    private void anOrdinaryUserNeedsAnAclOnBrokersAndControllers(Path adminConfig) throws Exception {
        Path alice = clientCertificate("alice");
        for (int node : List.of(4, 1)) {
            ToolRun refused = topics(node, "--command-config", alice.toString(), "--create", "--topic",
                    "alice-" + node, "--partitions", "1", "--replication-factor", "1");
            assertTrue(refused.exitCode() != 0 && refused.err().contains("TOPIC_AUTHORIZATION_FAILED"),
                    "node " + node + ": " + refused.out() + refused.err());
        }
        ToolRun granted = acls(4, adminConfig, "--add", "--allow-principal", "User:CN=alice", "--operation", "Create",
                "--operation", "Describe", "--topic", "alice-", "--resource-pattern-type", "prefixed");
        assertEquals(0, granted.exitCode(), granted.out() + granted.err());
        for (int node : List.of(4, 1)) {
            awaitOutput(() -> acls(node, adminConfig, "--list", "--topic", "alice-", "--resource-pattern-type",
                    "prefixed"), "principal=User:CN=alice");
            ToolRun created = topics(node, "--command-config", alice.toString(), "--create", "--topic",
                    "alice-" + node, "--partitions", "1", "--replication-factor", "1");
            assertEquals(0, created.exitCode(), "node " + node + ": " + created.out() + created.err());
        }
        ToolRun listed = topics(4, "--command-config", alice.toString(), "--list");
        assertEquals(List.of("alice-1", "alice-4"), listed.out().lines().sorted().toList(),
                "alice sees her topics and not demo: " + listed.out());
    }

    /**
     * A broker whose certificate the CA signed but whose principal is not in super.users (nor
     * granted CLUSTER_ACTION) is refused: its registration answers CLUSTER_AUTHORIZATION_FAILED
     * and it never appears among the brokers.
     */
    private void aNodeCertificateWithoutClusterActionCannotJoin(Path adminConfig) throws Exception {
        Path data = work.resolve("data");
        String password = Files.readString(data.resolve("certs").resolve("store.password")).trim();
        ToolRun issued = scripts.runTool(work, "certs-node-7", 60_000, "mq-certs", "node", "--ca-dir",
                data.resolve("certs").toString(), "--name", "node-7", "--san", "DNS:localhost,IP:127.0.0.1",
                "--out-dir", data.resolve("certs").resolve("node-7").toString(), "--store-password", password);
        assertEquals(0, issued.exitCode(), issued.err());
        Path dir = Files.createDirectories(data.resolve("node-7"));
        String properties = Files.readString(data.resolve("node-4").resolve("server.properties"))
                .replace("node.id=4", "node.id=7").replace("127.0.0.1:" + port(4), "127.0.0.1:" + port(7))
                .replace("127.0.0.1:" + kafkaPort(4), "127.0.0.1:" + kafkaPort(7))
                .replace("/node-4", "/node-7").replaceAll("(?m)^metrics\\.listener=.*\n", "");
        Path config = Files.writeString(dir.resolve("server.properties"), properties);
        ToolRun formatted = scripts.runTool(work, "format-node-7", 60_000, "mq-storage", "format", "--cluster-id",
                metaCluster(data.resolve("node-4").resolve("metadata").resolve("meta.properties")),
                "--config", config.toString());
        assertEquals(0, formatted.exitCode(), formatted.err());
        MetaquorumScripts.RunningTool rogue = scripts.startTool(work, "node-7", "mq-server", config.toString());
        try {
            awaitOutput(() -> new ToolRun(0, Files.readString(rogue.out()), Files.readString(rogue.err())),
                    "registration refused: CLUSTER_AUTHORIZATION_FAILED");
            ToolRun brokers = scripts.runTool(work, "brokers-" + System.nanoTime(), 60_000, "mq-metadata",
                    "brokers", "--bootstrap-server", "127.0.0.1:" + port(1), "--command-config",
                    adminConfig.toString());
            assertEquals(0, brokers.exitCode(), brokers.err());
            assertTrue(brokers.out().contains("Broker: 6\t") && !brokers.out().contains("Broker: 7\t"),
                    brokers.out());
        } finally {
            rogue.process().descendants().forEach(ProcessHandle::destroyForcibly);
            rogue.process().destroyForcibly().waitFor();
        }
    }

    private static String metaCluster(Path metaProperties) throws IOException {
        return Files.readAllLines(metaProperties).stream().filter(line -> line.startsWith("cluster.id="))
                .map(line -> line.substring("cluster.id=".length())).findFirst().orElseThrow();
    }

    /** A client certificate for {@code name} from the quickstart's CA, and its --command-config file. */
    private Path clientCertificate(String name) throws IOException {
        Path certs = work.resolve("data").resolve("certs");
        String password = Files.readString(certs.resolve("store.password")).trim();
        ToolRun issued = scripts.runTool(work, "certs-" + name, 60_000, "mq-certs", "client", "--ca-dir",
                certs.toString(), "--name", name, "--out-dir", certs.resolve(name).toString(), "--store-password",
                password);
        assertEquals(0, issued.exitCode(), issued.err());
        return Files.writeString(work.resolve(name + ".properties"), String.join("\n",
                "security.protocol=SSL",
                "ssl.keystore.location=" + certs.resolve(name).resolve(name + ".p12"),
                "ssl.keystore.type=PKCS12",
                "ssl.keystore.password=" + password,
                "ssl.truststore.location=" + certs.resolve(name).resolve("truststore.p12"),
                "ssl.truststore.type=PKCS12",
                "ssl.truststore.password=" + password) + "\n");
    }

    private ToolRun acls(int node, Path commandConfig, String... args) {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", "127.0.0.1:" + port(node),
                "--command-config", commandConfig.toString()));
        all.addAll(List.of(args));
        return scripts.runTool(work, "acls-" + System.nanoTime(), 60_000, "mq-acls", all.toArray(String[]::new));
    }

    /** A state to wait for, read by running a tool. */
    @FunctionalInterface
    private interface Probe {
        ToolRun run() throws IOException;
    }

    /** Runs {@code probe} until its output holds {@code expected}, for at most a minute. */
    private static void awaitOutput(Probe probe, String expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        ToolRun last = probe.run();
        while (!last.out().contains(expected)) {
            assertTrue(System.nanoTime() < deadline, "never printed '" + expected + "': " + last.out() + last.err());
            Thread.sleep(200);
            last = probe.run();
        }
    }

    /** mq-metadata on the data dirs of running nodes (read-only: they go on serving). */
    private void inspectRunningNodesDataDirs(Map<String, String> topics) {
        String controllerDir = work.resolve("data").resolve("node-1").resolve("metadata").toString();
        String brokerDir = work.resolve("data").resolve("node-5").resolve("metadata").toString();
        ToolRun verified = scripts.runTool(work, "verify", 60_000, "mq-metadata", "verify", "--data-dir", controllerDir);
        assertEquals(0, verified.exitCode(), verified.out() + verified.err());
        ToolRun dumped = scripts.runTool(work, "dump", 60_000, "mq-metadata", "dump", "--data-dir", brokerDir,
                "--topic", "demo", "--json");
        assertEquals(0, dumped.exitCode(), dumped.err());
        assertTrue(dumped.out().contains("\"type\": \"TopicRecord\"") && dumped.out().contains(topics.get("demo")),
                "the broker's copy of the log holds demo's TopicRecord with its id: " + dumped.out());
        ToolRun listed = scripts.runTool(work, "shell", 60_000, "mq-metadata", "shell", "--data-dir", brokerDir,
                "--command", "ls /topics");
        assertEquals(0, listed.exitCode(), listed.err());
        for (String topic : topics.keySet()) {
            assertTrue(listed.out().contains(topic), topic + " in the broker's image: " + listed.out());
        }
    }

    private static String clusterId(String quickstartOutput) {
        Matcher m = Pattern.compile("cluster id (\\S+);").matcher(quickstartOutput);
        assertTrue(m.find(), quickstartOutput);
        return m.group(1);
    }

    private void killAllByPid() throws Exception {
        List<ProcessHandle> killed = new ArrayList<>();
        for (int node = 1; node <= NODES; node++) {
            long pid = Long.parseLong(Files.readString(work.resolve("data").resolve("node-" + node)
                    .resolve("server.pid")).trim());
            Optional<ProcessHandle> process = ProcessHandle.of(pid);
            assertTrue(process.isPresent(), "node " + node + " runs");
            process.get().destroyForcibly();
            killed.add(process.get());
        }
        for (ProcessHandle process : killed) {
            // SIGKILL ends a process at once; the bound only keeps a stuck kernel from hanging the test.
            process.onExit().get(SCRIPT_WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }
}

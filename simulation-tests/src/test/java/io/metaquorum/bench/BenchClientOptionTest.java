package io.metaquorum.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.cli.CommandLines;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** mq-bench's {@code --client grpc|kafka}: what it accepts, what it refuses and how, and what a run says it ran. */
class BenchClientOptionTest {
    private record Run(int exitCode, String out, String err) {
    }

    private static Run mqBench(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = CommandLines.execute(new BenchTool(), args, new PrintWriter(out), new PrintWriter(err));
        return new Run(exitCode, out.toString(), err.toString());
    }

    private static AdminBenchOptions options(Object workload, String... args) {
        new CommandLine(workload).parseArgs(args);
        if (workload instanceof CreateTopicsBench b) {
            return b.options;
        }
        if (workload instanceof CreateOneBench b) {
            return b.options;
        }
        if (workload instanceof DescribeAllBench b) {
            return b.options;
        }
        return ((DeleteTopicsBench) workload).options;
    }

    @Test
    void grpcIsTheDefaultAndKafkaIsAccepted() {
        assertEquals(BenchClient.GRPC, options(new CreateOneBench(), "--bootstrap-server", "h:1").client);
        assertEquals(BenchClient.GRPC, options(new CreateOneBench(), "--bootstrap-server", "h:1", "--client", "grpc")
                .client);
        for (Object workload : List.of(new CreateTopicsBench(), new CreateOneBench(), new DescribeAllBench(),
                new DeleteTopicsBench())) {
            AdminBenchOptions options = options(workload, "--bootstrap-server", "127.0.0.1:19194", "--client",
                    "kafka");
            assertEquals(BenchClient.KAFKA, options.client, workload.getClass().getSimpleName());
            assertTrue(options.kafka());
        }
    }

    @Test
    void anotherClientIsAUsageErrorNamingTheChoices() {
        for (String value : List.of("rest", "KAFKA", "")) {
            Run run = mqBench("create-one", "--bootstrap-server", "127.0.0.1:1", "--client", value);
            assertEquals(2, run.exitCode(), value);
            assertTrue(run.err().startsWith("mq-bench create-one: "), run.err());
            assertTrue(run.err().contains("--client"), run.err());
            assertTrue(run.err().contains("expected grpc or kafka, got '" + value + "'"), run.err());
            assertEquals("", run.out());
        }
        assertEquals(2, mqBench("describe-all", "--bootstrap-server", "127.0.0.1:1", "--client").exitCode());
    }

    @Test
    void optionsKafkaCannotHonourAreUsageErrorsBeforeConnecting() {
        Run breakdown = mqBench("create-one", "--bootstrap-server", "127.0.0.1:1", "--client", "kafka",
                "--breakdown");
        assertEquals(2, breakdown.exitCode(), breakdown.err());
        assertTrue(breakdown.err().contains("--breakdown is not available with --client kafka"), breakdown.err());
        assertEquals("", breakdown.out());
        Run batches = mqBench("create-topics", "--bootstrap-server", "127.0.0.1:1", "--client", "kafka",
                "--breakdown");
        assertEquals(2, batches.exitCode(), batches.err());
        Run pages = mqBench("describe-all", "--bootstrap-server", "127.0.0.1:1", "--client", "kafka",
                "--page-partitions", "100");
        assertEquals(2, pages.exitCode(), pages.err());
        assertTrue(pages.err().contains("--page-partitions is not available with --client kafka"), pages.err());
    }

    @Test
    void theFirstNoteLineNamesTheClient() {
        assertEquals("# client: grpc", BenchClient.GRPC.note());
        assertEquals("# client: kafka (Apache Kafka AdminClient 4.4.0)", BenchClient.KAFKA.note());
    }

    @Test
    void theCommandConfigGoesToKafkasAdminClient(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SSL\nssl.truststore.location=/tmp/t.p12\n"
                + "request.timeout.ms=5\nbootstrap.servers=ignored:1\n");
        AdminBenchOptions options = options(new CreateOneBench(), "--bootstrap-server", "127.0.0.1:19194",
                "--client", "kafka", "--command-config", file.toString(), "--timeout-ms", "30000");
        Properties config = KafkaBenchSession.config(options);
        assertEquals("SSL", config.get("security.protocol"));
        assertEquals("/tmp/t.p12", config.get("ssl.truststore.location"));
        assertEquals("127.0.0.1:19194", config.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        assertEquals(30_000, config.get(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG));
        assertEquals(30_000, config.get(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG));
    }

    @Test
    void kafkasDescribeAllSaysWhatItCalled() {
        assertEquals("# describe-all: 2001 topics, 20001 partitions (ListTopics, then DescribeTopics of them);"
                + " median of 2 calls after 1 unmeasured; calls (ms): 1.25 2.50",
                KafkaClientBench.describeNote(2001, 20_001, 1, List.of(1.25, 2.5)));
    }
}

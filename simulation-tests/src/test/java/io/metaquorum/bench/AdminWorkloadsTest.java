package io.metaquorum.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AdminWorkloadsTest {
    private static <T> T parse(T command, String... args) {
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void createTopicsTakesProductMdDefaults() {
        CreateTopicsBench bench = parse(new CreateTopicsBench(), "--bootstrap-server", "127.0.0.1:19491");
        assertEquals(2000, bench.topics);
        assertEquals(10, bench.partitions);
        assertEquals(3, bench.replicationFactor);
        assertEquals(100, bench.batch);
        assertEquals(3, bench.options.brokers);
        assertEquals(List.of(new HostPort("127.0.0.1", 19491)), bench.options.bootstrap());
        bench.validate();
        bench.options.validate();
    }

    @Test
    void createTopicsParsesItsOptions() {
        CreateTopicsBench bench = parse(new CreateTopicsBench(), "--bootstrap-server", "a:1,b:2", "--topics", "7",
                "--partitions", "2", "--replication-factor", "1", "--batch", "3", "--brokers", "5");
        assertEquals(List.of(new HostPort("a", 1), new HostPort("b", 2)), bench.options.bootstrap());
        assertEquals(List.of(7, 2, 1, 3, 5), List.of(bench.topics, bench.partitions, bench.replicationFactor,
                bench.batch, bench.options.brokers));
    }

    @Test
    void theBootstrapServerIsRequired() {
        assertThrows(CommandLine.MissingParameterException.class, () -> parse(new CreateOneBench(), "--count", "3"));
    }

    @Test
    void nonPositiveSizesAreRefusedNamingTheOption() {
        CreateTopicsBench bench = parse(new CreateTopicsBench(), "--bootstrap-server", "h:1", "--batch", "0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bench::validate);
        assertEquals("--batch must be >= 1, got 0", e.getMessage());
        AdminBenchOptions options = parse(new CreateOneBench(), "--bootstrap-server", "h:1", "--brokers", "0").options;
        assertEquals("--brokers must be >= 1", assertThrows(IllegalArgumentException.class, options::validate)
                .getMessage());
        DeleteTopicsBench delete = parse(new DeleteTopicsBench(), "--bootstrap-server", "h:1", "--count", "-1");
        assertThrows(IllegalArgumentException.class, delete::validate);
        DescribeAllBench describe = parse(new DescribeAllBench(), "--bootstrap-server", "h:1", "--warmup", "-1");
        assertThrows(IllegalArgumentException.class, describe::validate);
    }

    @Test
    void otherWorkloadsTakeProductMdDefaults() {
        CreateOneBench one = parse(new CreateOneBench(), "--bootstrap-server", "h:1");
        assertEquals(200, one.count);
        DeleteTopicsBench delete = parse(new DeleteTopicsBench(), "--bootstrap-server", "h:1");
        assertEquals(List.of(500, 100, 1, 0), List.of(delete.count, delete.batch, delete.partitions, delete.warmup));
        DescribeAllBench describe = parse(new DescribeAllBench(), "--bootstrap-server", "h:1");
        assertEquals(List.of(5, 2), List.of(describe.runs, describe.warmup));
    }

    @Test
    void deleteTopicsWarmsUpWithOtherTopicsThenTimesOnlyTheMeasuredDeletes() throws Exception {
        List<String> calls = new ArrayList<>();
        DeleteTopicsBench.measure(new DeleteTopicsBench.Shape(5, 2, 1, 2), new DeleteTopicsBench.Topics() {
            @Override
            public String name(int index) {
                return "t" + index;
            }

            @Override
            public void create(List<String> names) {
                calls.add("create " + names);
            }

            @Override
            public void delete(List<String> names) {
                calls.add("delete " + names);
            }
        });
        assertEquals(List.of("create [t0, t1]", "delete [t0, t1]", "create [t2, t3]", "delete [t2, t3]",
                "create [t4, t5]", "create [t6, t7]", "create [t8]", "delete [t4, t5]", "delete [t6, t7]",
                "delete [t8]"), calls);
        DeleteTopicsBench negative = parse(new DeleteTopicsBench(), "--bootstrap-server", "h:1", "--warmup", "-1");
        assertEquals("--warmup must be >= 0, got -1",
                assertThrows(IllegalArgumentException.class, negative::validate).getMessage());
    }

    @Test
    void aMalformedBootstrapServerIsNamed() {
        AdminBenchOptions options = parse(new CreateOneBench(), "--bootstrap-server", "nohost").options;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, options::validate);
        assertEquals("expected HOST:PORT, got 'nohost'", e.getMessage());
    }

    @Test
    void theWorkloadsAreSubcommandsOfMqBench() {
        CommandLine bench = new CommandLine(new BenchTool());
        assertTrue(bench.getSubcommands().keySet().containsAll(
                List.of("create-topics", "create-one", "describe-all", "delete-topics")));
    }

    @Test
    void topicNamesArePrefixedByTheRunId() {
        assertEquals("b1", AdminBenchSession.runId(1));
        String run = AdminBenchSession.runId(1_764_585_600_000L);
        assertEquals(run + "-ct-17", AdminBenchSession.topicName(run, "ct", 17));
        assertTrue(AdminBenchSession.topicName(run, "ct", 17).matches("[a-z0-9-]+"));
        assertEquals(List.of(100, 100, 50), AdminFigures.batches(250, 100));
        assertEquals(List.of(3), AdminFigures.batches(3, 100));
    }

    @Test
    void createTopicsFiguresAreNamedAsInProductMd() {
        Histogram micros = AdminFigures.latencyMicros();
        for (long v : new long[] {300_000, 320_000, 340_000, 900_000}) {
            micros.recordValue(v);
        }
        List<String> lines = CreateTopicsBench.figureLines(8_000_000_000L, 20_000, micros);
        assertEquals("create_topics_total_s 8.000 s", lines.get(0));
        assertEquals("create_topics_partitions_per_s 2500 partitions/s", lines.get(1));
        assertTrue(lines.get(2).matches("create_topics_batch_p50_ms 3[12]\\d\\.\\d\\d ms"), lines.get(2));
        assertTrue(lines.get(3).matches("create_topics_batch_p99_ms 90\\d\\.\\d\\d ms"), lines.get(3));
    }

    @Test
    void createOneFiguresAreNamedAsInProductMd() {
        Histogram micros = AdminFigures.latencyMicros();
        micros.recordValue(1_500);
        assertEquals(List.of("create_one_p50_ms 1.50 ms", "create_one_p99_ms 1.50 ms", "create_one_max_ms 1.50 ms"),
                CreateOneBench.figureLines(micros));
    }

    @Test
    void describeAllPrintsTheMedianAndSaysOfWhat() {
        assertEquals(3.0, AdminFigures.median(List.of(5.0, 1.0, 3.0, 2.0, 4.0)));
        assertEquals("# describe-all: 2001 topic pieces, 20000 partitions in 2 page(s); median of 2 walks after 1"
                + " unmeasured; walks (ms): 1.25 2.50", DescribeAllBench.note(new DescribeAllBench.Walk(2001, 20_000,
                        2), 1, List.of(1.25, 2.5)));
        assertEquals("describe_all_ms 12.35 ms", AdminFigures.ms("describe_all_ms", 12.345_1));
    }

    @Test
    void deleteTopicsFigureIsARateOfTopics() {
        Histogram micros = AdminFigures.latencyMicros();
        micros.recordValue(10_000);
        List<String> lines = DeleteTopicsBench.figureLines(500, 50_000_000L, micros);
        assertEquals("delete_topics_per_s 10000 topics/s", lines.get(1));
        assertTrue(lines.get(0).startsWith("# deleted 500 topics in 0.050 s"), lines.get(0));
    }
}

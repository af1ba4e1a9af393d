package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.process.MetaquorumScripts.ToolRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Kafka's own tools as an operator runs them against a secured quickstart, logged in with a
 * {@code --command-config} file: {@code kafka-topics.sh}'s verbs (TopicCommand) over SSL or
 * SASL, and {@code kafka-configs.sh}'s SCRAM users (ConfigCommand). Reads after a write wait
 * for the brokers to replay it, as against Kafka.
 */
final class KafkaToolsOverSecurity {
    private static final long WAIT_S = 60;
    static final String TOPICS = "org.apache.kafka.tools.TopicCommand";
    private static final String CONFIGS = "org.apache.kafka.tools.ConfigCommand";

    private final Path work;
    private final String bootstrap;

    /** @param bootstrap the brokers' Kafka-protocol listeners, {@code H:P,H:P} */
    KafkaToolsOverSecurity(Path work, String bootstrap) {
        this.work = work;
        this.bootstrap = bootstrap;
    }

    ToolRun run(String mainClass, Path commandConfig, String... args) {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", bootstrap, "--command-config",
                commandConfig.toString()));
        all.addAll(List.of(args));
        return KafkaToolJvm.run(work, mainClass.substring(mainClass.lastIndexOf('.') + 1) + "-" + System.nanoTime(),
                mainClass, all);
    }

    /** TopicCommand's --create, --list, --describe, --alter --partitions and --delete of {@code topic}. */
    void topicVerbsWork(Path commandConfig, String topic) throws InterruptedException {
        ToolRun created = run(TOPICS, commandConfig, "--create", "--topic", topic, "--partitions", "2",
                "--replication-factor", "3");
        assertEquals(0, created.exitCode(), created.out() + created.err());
        assertEquals("Created topic " + topic + ".\n", created.out());
        await("--list shows " + topic, () -> run(TOPICS, commandConfig, "--list"),
                out -> out.lines().anyMatch(topic::equals));
        await("--describe shows two partitions", () -> run(TOPICS, commandConfig, "--describe", "--topic", topic),
                out -> out.contains("PartitionCount: 2\t"));
        ToolRun altered = run(TOPICS, commandConfig, "--alter", "--topic", topic, "--partitions", "3");
        assertEquals(0, altered.exitCode(), altered.out() + altered.err());
        await("--describe shows three partitions", () -> run(TOPICS, commandConfig, "--describe", "--topic", topic),
                out -> out.contains("PartitionCount: 3\t") && out.contains("Partition: 2\tLeader: "));
        ToolRun deleted = run(TOPICS, commandConfig, "--delete", "--topic", topic);
        assertEquals(0, deleted.exitCode(), deleted.out() + deleted.err());
        await("--list without " + topic, () -> run(TOPICS, commandConfig, "--list"),
                out -> out.lines().noneMatch(topic::equals));
    }

    /**
     * As the admin: kafka-configs.sh gives {@code user} a SCRAM-SHA-256 credential and lists
     * it; returns a --command-config that logs {@code user} in with it once the brokers have it.
     */
    Path addScramUser(Path adminConfig, String user, String password) throws Exception {
        ToolRun added = run(CONFIGS, adminConfig, "--alter", "--entity-type", "users", "--entity-name", user,
                "--add-config", "SCRAM-SHA-256=[iterations=8192,password=" + password + "]");
        assertEquals(0, added.exitCode(), added.out() + added.err());
        assertTrue(added.out().contains("Completed updating config for user " + user + "."), added.out());
        await("kafka-configs.sh --describe lists " + user, () -> run(CONFIGS, adminConfig, "--describe",
                "--entity-type", "users"), out -> out.contains("SCRAM credential configs for user-principal '"
                + user + "' are SCRAM-SHA-256=iterations=8192"));
        Path config = scramConfig(adminConfig, user, password, "SCRAM-SHA-256");
        await(user + " logs in", () -> run(TOPICS, config, "--list"), out -> true);
        return config;
    }

    /** {@code adminConfig} with {@code user}'s SCRAM login in place of the admin's. */
    Path scramConfig(Path adminConfig, String user, String password, String mechanism) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(adminConfig)) {
            if (line.startsWith("sasl.mechanism=")) {
                lines.add("sasl.mechanism=" + mechanism);
            } else if (line.startsWith("sasl.jaas.config=")) {
                lines.add("sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"" + user + "\" password=\"" + password + "\";");
            } else {
                lines.add(line);
            }
        }
        return Files.write(work.resolve(user + "-" + System.nanoTime() + ".properties"), lines);
    }

    /** Runs {@code tool} until it exits 0 with output {@code done} accepts, for at most a minute. */
    private static void await(String what, Supplier<ToolRun> tool, Predicate<String> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        ToolRun last = tool.get();
        while (last.exitCode() != 0 || !done.test(last.out())) {
            assertTrue(System.nanoTime() < deadline, "waited " + WAIT_S + " s for " + what + ": " + last.out()
                    + last.err());
            Thread.sleep(200);
            last = tool.get();
        }
    }
}

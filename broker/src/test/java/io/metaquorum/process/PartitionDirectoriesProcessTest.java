package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.process.MetaquorumScripts.ToolRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Brokers' partition directories through the real binaries (3 controllers + 3 brokers via
 * {@code bin/mq-server}): created on every replica once a create is acknowledged and gone
 * after a delete; a broker that was down while a topic was deleted and re-created stages the
 * old directory as a stray and deletes it after {@code delete.stale.topic.delay.ms}, also
 * across a restart; a broker restarted on a wiped disk after the log start moved catches up
 * through FetchSnapshot and recreates its directories.
 */
class PartitionDirectoriesProcessTest {
    private static final long STRAY_DELAY_MS = 4_000;
    private static final Pattern TOPIC_ID = Pattern.compile("Topic: (\\S+)\\tTopicId: (\\S+)\\t");
    private static final List<Integer> BROKERS = List.of(4, 5, 6);

    private ControllerCluster cluster;

    @AfterEach
    void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void start(TestInfo test, Map<String, String> extra) {
        Map<String, String> settings = new java.util.TreeMap<>(Map.of("broker.heartbeat.interval.ms", "500",
                "broker.session.timeout.ms", "3000", "delete.stale.topic.delay.ms", Long.toString(STRAY_DELAY_MS)));
        settings.putAll(extra);
        cluster = ControllerCluster.start(ProcessTestNames.of(test), settings, BROKERS.size());
        cluster.await("three unfenced brokers", () -> {
            ToolRun run = cluster.runTool("mq-metadata", "brokers", "--bootstrap-server", bootstrap(1),
                    "--min-unfenced", "3");
            return run.exitCode() == 0 ? Optional.of(run) : Optional.empty();
        });
    }

    private String bootstrap(int nodeId) {
        return cluster.node(nodeId).address().toString();
    }

    private void topics(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("--bootstrap-server", bootstrap(1)));
        command.addAll(List.of(args));
        ToolRun run = cluster.runTool("mq-topics", command.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
    }

    private String topicId(String topic) {
        ToolRun run = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(1), "--describe", "--topic", topic);
        Matcher m = TOPIC_ID.matcher(run.out());
        assertTrue(m.find(), run.out() + run.err());
        return m.group(2);
    }

    private Path partitionDir(int broker, String topic, int partition) {
        return cluster.node(broker).logDirs().resolve(topic + "-" + partition);
    }

    /**
     * The topic id in the partition.metadata of {@code dir}, or in its partition.metadata.tmp
     * while the broker has not published it yet (it does so 35 s after writing it); empty when
     * it has neither.
     */
    private static Optional<String> idIn(Path dir) {
        try {
            Path file = dir.resolve("partition.metadata");
            if (!Files.isRegularFile(file)) {
                file = dir.resolve("partition.metadata.tmp");
            }
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            String text = Files.readString(file, StandardCharsets.UTF_8);
            assertTrue(text.startsWith("version: 0\ntopic_id: "), text);
            return Optional.of(text.substring("version: 0\ntopic_id: ".length()).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<Path> strays(int broker) {
        try (Stream<Path> entries = Files.list(cluster.node(broker).logDirs())) {
            return entries.filter(p -> p.getFileName().toString().endsWith("-stray")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitDirectories(String what, String topic, int partitions, String id) {
        cluster.await(what, () -> {
            for (int broker : BROKERS) {
                for (int p = 0; p < partitions; p++) {
                    if (!idIn(partitionDir(broker, topic, p)).equals(Optional.of(id))) {
                        return Optional.empty();
                    }
                }
            }
            return Optional.of(true);
        });
    }

    @Test
    void everyReplicaHasTheDirectoriesOfACreatedTopicAndNoneAfterItsDelete(TestInfo test) {
        start(test, Map.of());
        topics("--create", "--topic", "orders", "--partitions", "4", "--replication-factor", "3");
        String id = topicId("orders");
        awaitDirectories("every broker has orders-0..3 with the topic id", "orders", 4, id);
        topics("--delete", "--topic", "orders");
        cluster.await("no broker has a directory of orders", () -> BROKERS.stream()
                .allMatch(b -> Stream.of(0, 1, 2, 3).noneMatch(p -> Files.exists(partitionDir(b, "orders", p))))
                ? Optional.of(true) : Optional.empty());
        assertTrue(BROKERS.stream().allMatch(b -> strays(b).isEmpty()), "a delete seen live leaves no stray");
    }

    @Test
    void aBrokerDownDuringDeleteAndRecreateStagesTheOldDirectoryAsAStrayAndDeletesItAfterTheDelay(TestInfo test) {
        start(test, Map.of());
        topics("--create", "--topic", "t", "--partitions", "1", "--replication-factor", "3");
        String oldId = topicId("t");
        awaitDirectories("t-0 everywhere", "t", 1, oldId);
        cluster.terminate(6);
        topics("--delete", "--topic", "t");
        // Broker 6 is fenced now, so the new topic names it by hand (automatic placement needs
        // three unfenced brokers for RF 3).
        topics("--create", "--topic", "t", "--replica-assignment", "4:5:6");
        String newId = topicId("t");
        assertTrue(!newId.equals(oldId), "a new topic id");
        assertEquals(Optional.of(oldId), idIn(partitionDir(6, "t", 0)), "broker 6 still has the old directory");
        cluster.restart(6);
        awaitDirectories("t-0 with the new id on every broker", "t", 1, newId);
        List<Path> strays = strays(6);
        assertEquals(1, strays.size(), "the old directory is staged aside: " + strays);
        assertEquals(Optional.of(oldId), idIn(strays.get(0)), "the stray holds the old id");
        assertTrue(strays.get(0).getFileName().toString().startsWith("t-0."), strays.toString());
        cluster.terminate(6);
        cluster.restart(6);
        cluster.await("the stray deleted once the delay passed, across a restart",
                () -> strays(6).isEmpty() ? Optional.of(true) : Optional.empty());
        assertEquals(Optional.of(newId), idIn(partitionDir(6, "t", 0)));
    }

    @Test
    void aBrokerOnAWipedDiskCatchesUpThroughASnapshotAndRecreatesItsDirectories(TestInfo test) throws IOException {
        start(test, Map.of("metadata.log.max.record.bytes.between.snapshots", "1024"));
        for (int i = 0; i < 12; i++) {
            topics("--create", "--topic", "s" + i, "--partitions", "3", "--replication-factor", "3");
        }
        cluster.await("a controller took a snapshot", () -> {
            Path snapshots = cluster.node(1).metadataDir().resolve("snapshots");
            if (!Files.isDirectory(snapshots)) {
                return Optional.empty();
            }
            try (Stream<Path> files = Files.list(snapshots)) {
                return files.anyMatch(f -> f.getFileName().toString().endsWith(".checkpoint"))
                        ? Optional.of(true) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        cluster.terminate(6);
        wipe(cluster.node(6).metadataDir());
        wipe(cluster.node(6).logDirs());
        long mark = cluster.node(6).logMark();
        cluster.restart(6);
        for (int i = 0; i < 12; i++) {
            awaitDirectories("s" + i + " back on the wiped broker", "s" + i, 3, topicId("s" + i));
        }
        String log = cluster.node(6).logSince(mark);
        assertTrue(log.contains("installing snapshot"), "it caught up through FetchSnapshot:\n"
                + log);
    }

    /** Deletes everything in {@code dir} but its meta.properties, as a re-format would leave it. */
    private static void wipe(Path dir) throws IOException {
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                if (!path.equals(dir) && !path.equals(dir.resolve("meta.properties"))) {
                    Files.delete(path);
                }
            }
        }
    }
}

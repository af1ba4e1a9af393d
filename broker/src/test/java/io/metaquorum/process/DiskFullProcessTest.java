package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.process.MetaquorumScripts.ToolRun;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A full disk as operators meet it: the node's directory on a small tmpfs (mounted by the test,
 * which needs root), filled by a file, then written to by ordinary admin traffic.
 *
 * <ul>
 *   <li>A controller whose metadata disk fills stops with one line naming the cause and the path
 *       (no stack trace), the quorum goes on without it, and once space is freed it restarts,
 *       catches up, and holds every topic that was acknowledged.</li>
 *   <li>A broker whose log dir fills takes it offline with one line, keeps running, keeps
 *       serving metadata and forwarding writes, and does not retry the full directory.</li>
 * </ul>
 */
class DiskFullProcessTest {
    private static final int BROKER = 4;
    private static final String ENOSPC = "No space left on device";

    private ControllerCluster cluster;
    private final List<Path> mounts = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        // Lazily: a node still holding files there is killed by close() just after.
        for (Path mount : mounts) {
            run("umount", "-l", mount.toString());
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aControllerWhoseDiskFillsStopsInOneLineAndRecoversWithNothingLostOnceSpaceIsFreed(TestInfo test)
            throws IOException {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(), 1);
        awaitUnfenced();
        int full = 2;
        cluster.terminate(full);
        Path metadataDir = cluster.node(full).metadataDir();
        moveOntoTmpfs(metadataDir, 16);
        cluster.restartExpectingExit(full);
        cluster.awaitAllCaughtUp("node " + full + " back on its tmpfs", 1);
        Path filler = fill(metadataDir);

        TreeSet<String> acknowledged = new TreeSet<>();
        for (int i = 0; i < 200 && cluster.node(full).isRunning(); i++) {
            String topic = "fill-" + i;
            ToolRun created = create(1, topic, 50);
            if (created.exitCode() == 0) {
                acknowledged.add(topic);
            }
        }
        int exit = cluster.node(full).awaitExit(ControllerCluster.WAIT_MS);
        assertEquals(1, exit, "a node stopped by a full disk halts with status 1");

        String log = Files.readString(cluster.node(full).logFile(), StandardCharsets.UTF_8);
        List<String> errors = log.lines().filter(line -> line.contains(" ERROR ")).toList();
        assertEquals(1, errors.size(), "one ERROR line:\n" + String.join("\n", errors));
        String line = errors.get(0);
        assertTrue(line.contains(ENOSPC) && line.contains(metadataDir.toString()) && line.contains("free space"),
                line);
        String after = log.substring(log.indexOf(line) + line.length());
        assertFalse(after.contains("\tat "), "no stack trace after the line:" + after);

        // The quorum goes on without it.
        ToolRun whileDown = create(1, "while-down", 3);
        assertEquals(0, whileDown.exitCode(), whileDown.err());
        acknowledged.add("while-down");

        Files.delete(filler);
        cluster.restart(full);
        long highWatermark = cluster.awaitLeaderReport("a leader", report -> true).highWatermark();
        cluster.awaitAllCaughtUp("node " + full + " caught up after space was freed", highWatermark);
        TreeSet<String> onRecovered = cluster.await("node " + full + " lists every acknowledged topic",
                () -> Optional.of(listTopics(full)).filter(listed -> listed.containsAll(acknowledged)));
        assertTrue(onRecovered.containsAll(acknowledged));
        assertEquals(listTopics(1), onRecovered, "the recovered node's image is its peers'");
    }

    @Test
    void aBrokerWhoseLogDirFillsTakesItOfflineAndKeepsServingMetadata(TestInfo test) throws IOException {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(), 1);
        cluster.terminate(BROKER);
        Path logDir = cluster.node(BROKER).logDirs();
        moveOntoTmpfs(logDir, 4);
        cluster.restart(BROKER);
        awaitUnfenced();
        fill(logDir);

        ToolRun afterFull = create(BROKER, "after-full", 30);
        assertEquals(0, afterFull.exitCode(), "a write through the broker is forwarded: " + afterFull.err());
        String offlineLine = cluster.await("the broker says its log dir is offline", () -> logLines(BROKER).stream()
                .filter(l -> l.contains(" ERROR ") && l.contains("log dir " + logDir + " is offline")).findFirst());
        assertTrue(offlineLine.contains(ENOSPC), offlineLine);

        // Metadata is still served by the broker, and new writes through it still work.
        ToolRun later = create(BROKER, "later", 3);
        assertEquals(0, later.exitCode(), later.err());
        assertTrue(cluster.await("the broker describes the new topic", () -> Optional.of(
                cluster.runTool("mq-topics", "--bootstrap-server", cluster.node(BROKER).address().toString(),
                        "--describe", "--topic", "later")).filter(r -> r.exitCode() == 0
                        && r.out().contains("PartitionCount: 3"))).out().contains("Topic: later"));
        assertTrue(cluster.node(BROKER).isRunning());
        List<String> retries = logLines(BROKER).stream()
                .filter(l -> l.contains("not all in place") || l.contains("; will retry")).toList();
        assertEquals(List.of(), retries, "an offline log dir is not retried");
    }

    /** Waits until the controllers list the broker as unfenced: a create needs it as a replica. */
    private void awaitUnfenced() {
        Pattern unfenced = Pattern.compile("\\tBroker: " + BROKER + "\\t.*\\tState: unfenced");
        cluster.await("broker " + BROKER + " unfenced", () -> Optional.of(cluster.runTool("mq-metadata", "brokers",
                "--bootstrap-server", cluster.node(1).address().toString())).filter(r -> unfenced.matcher(r.out()).find()));
    }

    private ToolRun create(int throughNode, String topic, int partitions) {
        return cluster.runTool("mq-topics", "--bootstrap-server", cluster.node(throughNode).address().toString(),
                "--create", "--topic", topic, "--partitions", Integer.toString(partitions),
                "--replication-factor", "1");
    }

    private TreeSet<String> listTopics(int nodeId) {
        ToolRun listed = cluster.runTool("mq-topics", "--bootstrap-server", cluster.node(nodeId).address().toString(),
                "--list");
        assertEquals(0, listed.exitCode(), listed.err());
        return new TreeSet<>(listed.out().lines().filter(l -> !l.isBlank()).toList());
    }

    private List<String> logLines(int nodeId) {
        try {
            return Files.readAllLines(cluster.node(nodeId).logFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Puts {@code dir}, with what it holds, on a tmpfs of {@code megabytes}; skips the test where mounting is not allowed. */
    private void moveOntoTmpfs(Path dir, int megabytes) throws IOException {
        Path aside = dir.resolveSibling(dir.getFileName() + ".before-tmpfs");
        Files.move(dir, aside);
        Files.createDirectory(dir);
        boolean mounted = run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", dir.toString());
        Assumptions.assumeTrue(mounted, "mounting a tmpfs needs root (CAP_SYS_ADMIN)");
        mounts.add(dir);
        assertTrue(run("cp", "-a", aside + "/.", dir.toString()), "copying " + aside + " onto the tmpfs");
    }

    /** Fills the file system of {@code dir} with one file until a write fails; returns the file. */
    private static Path fill(Path dir) throws IOException {
        Path filler = dir.resolve("filler");
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException expected) {
            assertTrue(String.valueOf(expected.getMessage()).contains(ENOSPC), expected.toString());
        }
        return filler;
    }

    private static boolean run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

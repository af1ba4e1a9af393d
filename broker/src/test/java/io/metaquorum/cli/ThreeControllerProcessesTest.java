package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.server.ClusterIds;
import io.metaquorum.server.HostPort;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of the real node main in 3 separate JVMs (what {@code bin/mq-server} runs):
 * they elect a leader, the leader's own records commit, and SIGTERM stops each node and
 * removes its pid file. Every wait is bounded; every process is killed in {@link #killAll}.
 */
class ThreeControllerProcessesTest {
    private static final long LEADER_WAIT_MS = 60_000;
    private static final long STOP_WAIT_MS = 30_000;

    @TempDir
    Path dir;
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void killAll() throws InterruptedException {
        for (Process process : processes) {
            process.destroyForcibly();
        }
        for (Process process : processes) {
            process.waitFor(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void threeControllersElectALeaderCommitAndStopOnSigterm() throws Exception {
        List<HostPort> addresses = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            addresses.add(new HostPort("127.0.0.1", MetadataToolTest.freePort()));
        }
        String voters = "1@" + addresses.get(0) + ",2@" + addresses.get(1) + ",3@" + addresses.get(2);
        String clusterId = ClusterIds.random();
        List<Path> configs = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            Path nodeDir = Files.createDirectories(dir.resolve("node-" + n));
            Path config = nodeDir.resolve("server.properties");
            Files.writeString(config, "process.roles=controller\nnode.id=" + n + "\ncontroller.quorum.voters=" + voters
                    + "\nlisteners=" + addresses.get(n - 1) + "\nmetadata.log.dir=" + nodeDir.resolve("metadata") + "\n");
            StorageFormatter.format(ServerConfig.load(config), clusterId, false, line -> { });
            configs.add(config);
        }
        for (Path config : configs) {
            processes.add(startServer(config));
        }

        QuorumReport first = awaitLeader(addresses, LEADER_WAIT_MS, -1);
        assertEquals(clusterId, first.clusterId());
        assertEquals(List.of(1, 2, 3), first.voters().stream().map(QuorumReport.Replica::nodeId).toList());
        assertTrue(first.leaderId() >= 1 && first.leaderId() <= 3, "leader " + first.leaderId());
        QuorumReport later = awaitLeader(addresses, LEADER_WAIT_MS, first.highWatermark());
        assertTrue(later.highWatermark() > first.highWatermark(), "idle NoOpRecords commit");
        for (Path config : configs) {
            assertTrue(Files.exists(config.resolveSibling("server.pid")), "pid file of " + config);
        }

        for (Process process : processes) {
            process.destroy();
        }
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            assertTrue(process.waitFor(STOP_WAIT_MS, TimeUnit.MILLISECONDS), "node " + (i + 1) + " stops on SIGTERM");
            assertEquals(143, process.exitValue(), "exit status of SIGTERM");
            assertFalse(Files.exists(configs.get(i).resolveSibling("server.pid")), "pid file removed");
        }
    }

    private Process startServer(Path config) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(java.toString(), "-Xmx256m", "-cp", classPath, "io.metaquorum.server.ServerMain",
                config.toString())
                .redirectErrorStream(true)
                .redirectOutput(config.resolveSibling("server.log").toFile())
                .start();
    }

    /** The leader's report once its high watermark is above {@code highWatermarkAbove}; fails after the bound. */
    private QuorumReport awaitLeader(List<HostPort> addresses, long waitMs, long highWatermarkAbove)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        String lastProblem = "none";
        while (System.nanoTime() < deadline) {
            for (Process process : processes) {
                if (!process.isAlive()) {
                    fail("a node exited with " + process.exitValue() + "; see " + dir + "/node-*/server.log");
                }
            }
            try {
                QuorumReport report = QuorumReport.from(QuorumLeaderLookup.describeLeader(addresses, 2_000));
                if (report.highWatermark() > highWatermarkAbove) {
                    return report;
                }
            } catch (CommandFailure e) {
                lastProblem = e.getMessage();
            }
            Thread.sleep(200);
        }
        return fail("no leader with a high watermark above " + highWatermarkAbove + " within " + waitMs
                + " ms; last: " + lastProblem);
    }
}

package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.process.DumpedLog.DumpedRecord;
import io.metaquorum.process.MetaquorumScripts.ToolRun;
import io.metaquorum.server.ConfigKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A node killed while the leader snapshots and moves its log start past the node's log end
 * restarts and catches up through FetchSnapshot: it installs the leader's snapshot, then
 * fetches the records after it.
 */
class SnapshotCatchUpProcessTest {
    /** {@code metadata.log.dir/snapshots/<endOffset:20>-<epoch:10>.checkpoint}, as the log store names them. */
    private static final Pattern SNAPSHOT_FILE = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    private static final Pattern SNAPSHOTS_TOOL_LINE = Pattern.compile("endOffset: (\\d+) epoch: (\\d+)");

    private ControllerCluster cluster;

    @AfterEach
    void stopEveryProcess() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void restartedNodeBehindTheLeadersLogStartCatchesUpThroughFetchSnapshot(TestInfo test) {
        // Idle NoOpRecords every 20 ms and a snapshot every 128 bytes of records (about 60 of
        // them): the leader's log start moves every second or two.
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(ConfigKeys.IDLE_INTERVAL_MS, "20",
                ConfigKeys.SNAPSHOT_TRIGGER_BYTES, "128"));
        QuorumReport before = cluster.awaitAllCaughtUp("a leader with every voter caught up", 20);
        int follower = ControllerCluster.NODE_IDS.stream().filter(id -> id != before.leaderId()).findFirst()
                .orElseThrow();

        assertEquals(ControllerProcess.EXIT_SIGKILL, cluster.killHard(follower), "exit status of kill -9");
        // From the kill on, the dead follower's log ends at or below the leader's log end.
        QuorumReport afterKill = cluster.awaitLeaderReport("a leader after the kill", r -> true);
        int leader = afterKill.leaderId();
        long followerEndAtMost = afterKill.leaderLogEndOffset();
        long leaderLogStart = cluster.await("node " + leader + "'s newest snapshot ends past offset " + followerEndAtMost,
                () -> newestSnapshotEnd(cluster.node(leader).metadataDir()).filter(end -> end > followerEndAtMost));

        cluster.restart(follower);
        QuorumReport caughtUp = cluster.awaitLeaderReport("restarted node " + follower
                + " reaches the high watermark, past the snapshot at " + leaderLogStart,
                r -> r.highWatermark() >= leaderLogStart && voter(r, follower).logEndOffset() >= r.highWatermark());
        String log = cluster.node(follower).logOfThisIncarnation();
        Matcher installed = Pattern.compile("\\[node " + follower + "] installing snapshot OffsetAndEpoch\\[offset=(\\d+), "
                + "epoch=\\d+] \\(\\d+ bytes\\) from leader (\\d+)").matcher(log);
        assertTrue(installed.find(), "node " + follower + " installed a snapshot fetched from the leader:\n" + log);
        long installedOffset = Long.parseLong(installed.group(1));
        assertTrue(installedOffset >= leaderLogStart, "installed snapshot ends at " + installedOffset
                + ", at or past the leader's log start " + leaderLogStart + " when the node restarted");
        assertEquals(leader, Integer.parseInt(installed.group(2)), "snapshot served by the leader");
        assertTrue(caughtUp.highWatermark() >= installedOffset, "caught up past the snapshot");

        cluster.terminateAll().forEach((id, code) ->
                assertEquals(ControllerProcess.EXIT_SIGTERM, code, "exit status of node " + id));
        ToolRun snapshots = cluster.runTool("mq-metadata", "snapshots", "--data-dir",
                cluster.node(follower).metadataDir().toString());
        assertEquals(0, snapshots.exitCode(), "mq-metadata snapshots: " + snapshots.err());
        Matcher listed = SNAPSHOTS_TOOL_LINE.matcher(snapshots.out());
        long logStart = -1;
        while (listed.find()) {
            logStart = Math.max(logStart, Long.parseLong(listed.group(1)));
        }
        assertTrue(logStart >= installedOffset,
                "mq-metadata snapshots lists a snapshot at or past " + installedOffset + ":\n" + snapshots.out());
        DumpedLog dumped = cluster.dump(List.of(follower)).get(0);
        assertEquals(LongStream.range(logStart, dumped.endOffset()).boxed().toList(),
                dumped.records().stream().map(DumpedRecord::offset).toList(),
                "node " + follower + "'s log runs without a gap from its snapshot on");
    }

    private static Optional<Long> newestSnapshotEnd(Path metadataDir) {
        Path directory = metadataDir.resolve("snapshots");
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> SNAPSHOT_FILE.matcher(file.getFileName().toString()))
                    .filter(Matcher::matches).map(m -> Long.parseLong(m.group(1))).max(Long::compare);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static QuorumReport.Replica voter(QuorumReport report, int id) {
        return report.voters().stream().filter(v -> v.nodeId() == id).findFirst()
                .orElseThrow(() -> new AssertionError("node " + id + " is not among the voters of " + report));
    }
}

package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.shell.ImageTree;
import io.metaquorum.metadata.shell.ShellSession;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.TopicIds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mq-metadata shell}: the image it builds (compared as objects) and its commands. */
class MetadataShellTest {
    @TempDir
    Path dir;

    private CliRun shell(String... commands) {
        List<String> args = new ArrayList<>(List.of("shell", "--data-dir", dir.toString()));
        for (String command : commands) {
            args.add("--command");
            args.add(command);
        }
        return CliRun.of(MetadataTool::run, args.toArray(String[]::new));
    }

    @Test
    void atOffsetIsTheImageAReplayToThatOffsetGivesForEveryOffset() {
        List<RecordBatch> batches = MetadataLogFixture.batches();
        MetadataLogFixture.write(dir, batches);
        for (long n = -1; n < MetadataLogFixture.END_OFFSET; n++) {
            MetadataImage expected = MetadataLogFixture.replay(batches, n);
            assertEquals(n, expected.lastCommittedOffset());
            assertEquals(expected, ShellCommand.offlineImage(dir, n), "at offset " + n);
        }
        assertEquals(MetadataLogFixture.replay(batches, Long.MAX_VALUE), ShellCommand.offlineImage(dir, null));
        assertTrue(shell("cat /provenance").out().startsWith("lastOffset: 23\nlastEpoch: 2"));
    }

    @Test
    void atOffsetOnALogThatTookASnapshotStartsFromTheSnapshot() {
        List<RecordBatch> batches = MetadataLogFixture.batches();
        MetadataLogFixture.writeWithSnapshot(dir);
        for (long n = MetadataLogFixture.SNAPSHOT_ID.offset() - 1; n < MetadataLogFixture.END_OFFSET; n++) {
            assertEquals(MetadataLogFixture.replay(batches, n), ShellCommand.offlineImage(dir, n), "at offset " + n);
        }
        CommandFailure early = assertThrows(CommandFailure.class, () -> ShellCommand.offlineImage(dir, 3L));
        assertEquals("offset 3 is outside the log: images exist at offsets 15 to 23 (earlier ones are inside snapshot "
                + "16-2)", early.getMessage());
    }

    @Test
    void commandsShowTheTree() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        String demoId = TopicIds.toBase64(MetadataLogFixture.DEMO);
        assertEquals("brokers\ntopics\ntopicIds\nconfigs\nacls\nscram\nfeatures\nprovenance\n", shell("ls").out());
        assertEquals("demo\ngone\n", shell("ls /topics").out());
        assertEquals("topic: demo\ntopicId: " + demoId + "\npartition: 0\nleader: 5\nleaderEpoch: 1\npartitionEpoch: 1\n"
                + "replicas: 4,5,6\nisr: 5,6\n", shell("cat /topics/demo/0").out());
        assertEquals("topic: demo\ntopicId: " + demoId + "\npartition: 0\nleader: 4\nleaderEpoch: 0\npartitionEpoch: 0\n"
                + "replicas: 4,5,6\nisr: 4,5,6\n", CliRun.of(MetadataTool::run, "shell", "--data-dir", dir.toString(),
                "--at-offset", "15", "--command", "cat /topics/demo/0").out());
        assertEquals(demoId + "\n" + TopicIds.toBase64(MetadataLogFixture.GONE_SECOND) + "\n",
                shell("cat /topics/*/id").out());
        assertEquals("demo\n", shell("cat /topicIds/" + demoId + "/name").out());
        assertEquals("/topics\n", shell("cd /topics/demo", "cd ..", "pwd").out());
        assertEquals("retention.ms=1000\n", shell("cat /configs/topic/demo").out());
        assertEquals("log.cleaner.threads=2\n", shell("cat configs/broker/4").out());
        assertTrue(shell("cat /brokers/6").out().endsWith("fenced: true\n"), shell("cat /brokers/6").out());
        assertEquals("1\n", shell("cat /features/metadata.version").out());
        assertEquals("/configs\n/configs/broker\n/configs/broker/4\n/configs/topic\n/configs/topic/demo\n",
                shell("find /configs").out());
        assertEquals("/brokers\n  4\n  5\n  6\n", shell("tree /brokers").out());
        assertEquals("/topics/demo/0\n/topics/demo/1\n/topics/gone/0\n", shell("ls /topics/*/[0-1]").out());
    }

    @Test
    void aMissingPathIsOneErrorLineAndExit1() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        CliRun run = shell("cat /topics/nope/0");
        assertEquals(1, run.exitCode());
        assertEquals("cat: /topics/nope/0: no such file or directory\n", run.err());
        CliRun offset = CliRun.of(MetadataTool::run, "shell", "--data-dir", dir.toString(), "--at-offset", "99",
                "--command", "ls");
        assertEquals(1, offset.exitCode());
        assertEquals("mq-metadata shell: offset 99 is outside the log: images exist at offsets -1 to 23",
                offset.err().strip());
    }

    @Test
    void opensTheLogOfARunningNode() {
        List<RecordBatch> batches = MetadataLogFixture.batches();
        try (MetadataLogStore node = MetadataLogStore.open(dir)) {
            MetadataLogFixture.append(node, batches.subList(0, 6));
            assertEquals("demo\ngone\n", shell("ls /topics").out());
            MetadataLogFixture.append(node, batches.subList(6, 8));
            assertEquals("5\n", shell("cat /topics/demo/0").out().lines().filter(l -> l.startsWith("leader: "))
                    .map(l -> l.substring(8)).findFirst().orElse("") + "\n");
        }
    }

    @Test
    void sessionCompletesAndKeepsHistory() {
        ShellSession session = new ShellSession(new ImageTree(MetadataLogFixture.replay(MetadataLogFixture.batches(),
                Long.MAX_VALUE)));
        assertEquals(List.of("cat", "cd"), session.complete("c"));
        assertEquals(List.of("/topics/", "/topicIds/"), session.complete("ls /to"));
        assertEquals(List.of("/topics/demo/"), session.complete("cd /topics/de"));
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        assertTrue(session.execute("cd topics", out::add, err::add));
        assertEquals(List.of("demo/", "gone/"), session.complete("cat "));
        assertEquals(List.of("demo/id", "demo/0", "demo/1", "demo/2"), session.complete("cat demo/"));
        assertTrue(session.execute("ls demo", out::add, err::add));
        assertFalse(session.execute("exit", out::add, err::add));
        assertEquals(List.of("cd topics", "ls demo", "exit"), session.history());
        assertEquals(List.of("id", "0", "1", "2"), out);
        assertEquals(List.of(), err);
    }
}

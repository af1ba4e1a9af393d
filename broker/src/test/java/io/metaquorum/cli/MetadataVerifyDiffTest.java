package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.RecordBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mq-metadata verify}, {@code diff} and {@code snapshots} on logs written through the production store. */
class MetadataVerifyDiffTest {
    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(MetadataTool::run, args);
    }

    @Test
    void verifyPassesAHealthyLogAndSaysWhatItChecked() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        CliRun run = run("verify", "--data-dir", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals("snapshots: none", lines.get(0));
        assertTrue(lines.get(1).startsWith("log: offsets [0, 24) in 13 batches, 24 records, "), lines.get(1));
        assertEquals("epochs: [1, 2] never decrease; the epoch index {1=0, 2=15} matches the batches", lines.get(2));
        assertTrue(lines.get(3).startsWith("replay: from offset 0 to offset 23 through MetadataDelta, no invariant "
                + "failure (2 topics, 3 brokers)"), lines.get(3));
        assertEquals("verify: ok", lines.get(4));
    }

    @Test
    void verifyPassesALogThatTookASnapshot() {
        MetadataLogFixture.writeWithSnapshot(dir);
        CliRun run = run("verify", "--data-dir", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("snapshots: 1 (16-2), every file decodes and replays, epochs never decrease; "
                + "the log starts after 16-2 as meta records, and its file is present"), run.out());
        assertTrue(run.out().contains("replay: snapshot 16-2 then the log to offset 23"), run.out());
        CliRun snapshots = run("snapshots", "--data-dir", dir.toString(), "--json");
        assertEquals(0, snapshots.exitCode(), snapshots.err());
        assertTrue(snapshots.out().matches("\\{\"snapshots\": \\[\\{\"file\": \"00000000000000000016-0000000002"
                + "\\.checkpoint\", \"endOffset\": 16, \"epoch\": 2, \"bytes\": \\d+, \"records\": 11, "
                + "\"lastContainedLogTimeMs\": 1764583200000, \"checksum\": \"valid\"}]}\\s*"), snapshots.out());
        CliRun text = run("snapshots", "--data-dir", dir.toString());
        assertTrue(text.out().startsWith("snapshot: 00000000000000000016-0000000002.checkpoint endOffset: 16 epoch: 2 "
                + "bytes: "), text.out());
        assertTrue(text.out().strip().endsWith("records: 11 lastContainedLogTime: 2025-12-01T10:00:00Z checksum: valid"),
                text.out());
    }

    @Test
    void aCorruptSnapshotFileIsListedAsCorruptAndFailsVerify() throws Exception {
        MetadataLogFixture.writeWithSnapshot(dir);
        Path file = dir.resolve("snapshots").resolve("00000000000000000016-0000000002.checkpoint");
        byte[] content = Files.readAllBytes(file);
        content[content.length / 2] ^= 0x01;
        Files.write(file, content);
        CliRun snapshots = run("snapshots", "--data-dir", dir.toString());
        assertEquals(1, snapshots.exitCode());
        assertTrue(snapshots.out().contains("records: ? lastContainedLogTime: none checksum: corrupt: "), snapshots.out());
        CliRun verify = run("verify", "--data-dir", dir.toString());
        assertEquals(1, verify.exitCode());
        assertTrue(verify.err().startsWith("mq-metadata verify: first bad offset 16: "), verify.err());
    }

    @Test
    void verifyNamesTheOffsetOfACorruptBatch() throws Exception {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        PlantedCorruption.flipMiddleBit(dir, 13);
        CliRun run = run("verify", "--data-dir", dir.toString());
        assertEquals(1, run.exitCode());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().startsWith("mq-metadata verify: first bad offset 13: corrupt metadata log batch at offset "
                + "13: "), run.err());
    }

    @Test
    void verifyNamesTheOffsetOfARecordReplayRefuses() {
        List<RecordBatch> batches = MetadataLogFixture.batches();
        // Without the registrations, the first unfence names an unknown broker.
        List<RecordBatch> broken = new java.util.ArrayList<>(batches.subList(0, 2));
        RecordBatch unfence = batches.get(3);
        broken.add(io.metaquorum.raft.storage.RecordBatches.build(2, 1, unfence.getAppendTimeMs(), false,
                io.metaquorum.raft.storage.RecordBatches.records(unfence)));
        MetadataLogFixture.write(dir, broken);
        CliRun run = run("verify", "--data-dir", dir.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("mq-metadata verify: first bad offset 2: replay: "), run.err());
    }

    @Test
    void diffFindsAPlantedDifference(@TempDir Path other) {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        MetadataLogFixture.write(other, MetadataLogFixture.batches("2000"));
        CliRun run = run("diff", "--data-dir", dir.toString(), "--data-dir", other.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals("first difference at offset 20:", lines.get(0));
        assertTrue(lines.get(1).startsWith("A " + dir + ": | offset: 20 epoch: 2 type: ConfigRecord") 
                && lines.get(1).endsWith("value: \"1000\"}"), lines.get(1));
        assertTrue(lines.get(2).startsWith("B " + other + ": | offset: 20 epoch: 2 type: ConfigRecord")
                && lines.get(2).endsWith("value: \"2000\"}"), lines.get(2));
    }

    @Test
    void diffOfALogAndItsPrefixIsIdenticalUpToTheShorterEnd(@TempDir Path other) {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        MetadataLogFixture.write(other, MetadataLogFixture.batches().subList(0, 7));
        CliRun run = run("diff", "--data-dir", dir.toString(), "--data-dir", other.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("identical up to 16 (A ends at 24, B at 16)", run.out().strip());
        CliRun same = run("diff", "--data-dir", dir.toString(), "--data-dir", dir.toString());
        assertEquals("identical up to 24 (A ends at 24, B at 24)", same.out().strip());
    }

    @Test
    void badDirectoriesAreOneLine(@TempDir Path empty) throws Exception {
        Path missing = empty.resolve("missing");
        Path foreign = Files.createDirectories(empty.resolve("foreign").resolve("rocksdb"));
        Files.writeString(foreign.resolve("CURRENT"), "not a database\n");
        for (String command : List.of("dump", "verify", "diff")) {
            for (Path bad : List.of(missing, empty, foreign.getParent())) {
                CliRun run = command.equals("diff") ? run(command, "--data-dir", bad.toString(), "--data-dir",
                        bad.toString()) : run(command, "--data-dir", bad.toString());
                assertEquals(1, run.exitCode(), command + " " + bad + ": " + run.out());
                assertEquals(1, run.errLines(), command + " " + bad + ": " + run.err());
                assertFalse(run.err().contains("\tat "), run.err());
                assertTrue(run.err().startsWith("mq-metadata " + command + ": "), run.err());
            }
        }
    }
}

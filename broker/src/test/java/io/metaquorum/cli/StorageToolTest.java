package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.server.ClusterIds;
import io.metaquorum.server.MetaProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageToolTest {
    @TempDir
    Path dir;

    private Path config() throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "process.roles=controller\nnode.id=1\ncontroller.quorum.voters=1@127.0.0.1:19091\n"
                + "listeners=127.0.0.1:19091\nmetadata.log.dir=" + dir.resolve("metadata") + "\n");
        return file;
    }

    @Test
    void randomUuidPrintsOneClusterId() {
        CliRun run = CliRun.of(StorageTool::run, "random-uuid");
        assertEquals(0, run.exitCode());
        String id = run.out().strip();
        assertEquals(id, ClusterIds.validate(id));
    }

    @Test
    void formatRefusesAFormattedDirectoryUnlessIgnored() throws IOException {
        Path config = config();
        String id = ClusterIds.random();
        CliRun first = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id", id);
        assertEquals(0, first.exitCode(), first.err());
        assertEquals(id, MetaProperties.read(dir.resolve("metadata")).orElseThrow().clusterId());

        CliRun again = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id", id);
        assertEquals(1, again.exitCode());
        assertEquals(1, again.errLines(), again.err());
        assertTrue(again.err().startsWith("mq-storage format: ") && again.err().contains("already formatted"),
                again.err());

        CliRun ignored = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id", id,
                "--ignore-formatted");
        assertEquals(0, ignored.exitCode(), ignored.err());
    }

    @Test
    void aBadConfigIsOneLineNamingTheKey() throws IOException {
        Path config = config();
        Files.writeString(config, Files.readString(config) + "node.id=x\n");
        CliRun run = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id",
                ClusterIds.random());
        assertEquals(1, run.exitCode());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().contains("node.id: expected an integer, got 'x'"), run.err());
    }

    @Test
    void usageErrorsAreOneLineWithExitCode2() {
        CliRun missing = CliRun.of(StorageTool::run);
        assertEquals(2, missing.exitCode());
        assertEquals(1, missing.errLines(), missing.err());
        CliRun unknownOption = CliRun.of(StorageTool::run, "format", "--cluster-id", "x");
        assertEquals(2, unknownOption.exitCode());
        assertEquals(1, unknownOption.errLines(), unknownOption.err());
        assertTrue(unknownOption.err().contains("--config"), unknownOption.err());
    }

    @Test
    void everyCommandPrintsHelp() {
        for (String[] args : new String[][] {{"--help"}, {"random-uuid", "--help"}, {"format", "--help"}}) {
            CliRun run = CliRun.of(StorageTool::run, args);
            assertEquals(0, run.exitCode());
            assertTrue(run.out().startsWith("Usage: mq-storage"), run.out());
        }
    }

    @Test
    void formatNamesABadInitialControllersFlag() throws IOException {
        Path config = config();
        String id = ClusterIds.random();
        CliRun bad = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id", id,
                "--initial-controllers", "1@127.0.0.1:19091");
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().startsWith("mq-storage format: --initial-controllers: "), bad.err());
        CliRun both = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id", id,
                "--initial-controllers", "1@127.0.0.1:19091:AAAAAAAAAAAAAAAAAAAAEQ", "--no-initial-controllers");
        assertEquals(1, both.exitCode());
        assertTrue(both.err().contains("--initial-controllers and --no-initial-controllers exclude each other"),
                both.err());
        assertTrue(MetaProperties.read(dir.resolve("metadata")).isEmpty(), "nothing formatted");
    }

    @Test
    void formatTakesRepeatedAddScramAndNamesABadOne() throws IOException {
        Path config = config();
        String id = ClusterIds.random();
        CliRun bad = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id", id,
                "--add-scram", "SCRAM-SHA-256=[name=alice,password=hunter2,iterations=99]");
        assertEquals(1, bad.exitCode());
        assertEquals("mq-storage format: --add-scram SCRAM-SHA-256=[...]: 'iterations' must be within 4096 and "
                + "16384, not 99", bad.err().strip());
        assertTrue(MetaProperties.read(dir.resolve("metadata")).isEmpty(), "nothing formatted");
        CliRun good = CliRun.of(StorageTool::run, "format", "--config", config.toString(), "--cluster-id", id,
                "--add-scram", "SCRAM-SHA-256=[name=alice,password=alice-secret]",
                "--add-scram", "SCRAM-SHA-512=[name=bob,password=bob-secret,iterations=8192]");
        assertEquals(0, good.exitCode(), good.err());
        assertTrue(good.out().contains("Wrote 2 SCRAM credentials"), good.out());
        assertEquals(2, io.metaquorum.server.BootstrapScram.read(dir.resolve("metadata")).size());
    }
}

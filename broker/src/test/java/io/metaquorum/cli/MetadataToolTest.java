package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.transport.grpc.RefusingPort;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataToolTest {
    @Test
    void anUnreachableControllerIsOneLineAndExit1() throws IOException {
        try (RefusingPort nobody = RefusingPort.open()) {
            CliRun run = CliRun.of(MetadataTool::run, "quorum", "--bootstrap-controller", "127.0.0.1:" + nobody.port());
            assertEquals(1, run.exitCode());
            assertEquals(1, run.errLines(), run.err());
            assertTrue(run.err().startsWith("mq-metadata quorum: no quorum leader answered: 127.0.0.1:" + nobody.port()
                    + " is unreachable"), run.err());
            assertFalse(run.err().contains("\tat "), "no stack trace without --verbose");
            assertEquals("", run.out());
        }
    }

    @Test
    void verboseAddsTheStackTrace() throws IOException {
        try (RefusingPort nobody = RefusingPort.open()) {
            CliRun run = CliRun.of(MetadataTool::run, "quorum", "--bootstrap-controller", "127.0.0.1:" + nobody.port(),
                    "--verbose");
            assertEquals(1, run.exitCode());
            assertTrue(run.err().contains("\tat "), run.err());
        }
    }

    @Test
    void aMalformedBootstrapControllerIsOneLine() {
        CliRun run = CliRun.of(MetadataTool::run, "quorum", "--bootstrap-controller", "localhost");
        assertEquals(1, run.exitCode());
        assertEquals("mq-metadata quorum: --bootstrap-controller: expected HOST:PORT, got 'localhost'",
                run.err().strip());
    }

    @Test
    void dumpOfADirectoryWithoutALogIsOneLine(@TempDir Path dir) {
        CliRun run = CliRun.of(MetadataTool::run, "dump", "--data-dir", dir.toString());
        assertEquals(1, run.exitCode());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().contains("holds no metadata log"), run.err());
    }

    @Test
    void snapshotsOfAnEmptyDirectoryListNothing(@TempDir Path dir) {
        CliRun run = CliRun.of(MetadataTool::run, "snapshots", "--data-dir", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out());
    }

    @Test
    void everyCommandPrintsHelp() {
        for (String[] args : new String[][] {{"--help"}, {"quorum", "--help"}, {"dump", "--help"},
            {"snapshots", "--help"}, {"verify", "--help"}, {"diff", "--help"}, {"shell", "--help"},
            {"unsafe-recover", "--help"}}) {
            CliRun run = CliRun.of(MetadataTool::run, args);
            assertEquals(0, run.exitCode());
            assertTrue(run.out().startsWith("Usage: mq-metadata"), run.out());
        }
    }

    @Test
    void removeControllerWithAMalformedDirectoryIdIsOneLine() {
        CliRun run = CliRun.of(MetadataTool::run, "remove-controller", "--bootstrap-controller", "127.0.0.1:1",
                "--controller-id", "2", "--controller-directory-id", "not-an-id");
        assertEquals(1, run.exitCode());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().startsWith("mq-metadata remove-controller: --controller-directory-id: not a directory id:"
                + " 'not-an-id'"), run.err());
    }

    @Test
    void addControllerNeedsAControllerWithAFormattedDirectory(@TempDir Path dir) throws IOException {
        Path broker = dir.resolve("broker.properties");
        Files.writeString(broker, "process.roles=broker\nnode.id=4\ncontroller.quorum.voters=1@127.0.0.1:19091\n"
                + "listeners=127.0.0.1:0\nmetadata.log.dir=" + dir.resolve("m4") + "\nlog.dirs=" + dir.resolve("l4")
                + "\n");
        CliRun notController = CliRun.of(MetadataTool::run, "add-controller", "--config", broker.toString());
        assertEquals(1, notController.exitCode());
        assertTrue(notController.err().contains("process.roles has no controller"), notController.err());

        Path controller = dir.resolve("controller.properties");
        Files.writeString(controller, "process.roles=controller\nnode.id=4\n"
                + "controller.quorum.voters=1@127.0.0.1:19091\nlisteners=127.0.0.1:19094\nmetadata.log.dir="
                + dir.resolve("m4") + "\n");
        CliRun unformatted = CliRun.of(MetadataTool::run, "add-controller", "--config", controller.toString());
        assertEquals(1, unformatted.exitCode());
        assertEquals(1, unformatted.errLines(), unformatted.err());
        assertTrue(unformatted.err().contains("has no meta.properties with a directory.id: format it with "
                + "mq-storage format --no-initial-controllers first"), unformatted.err());
    }
}

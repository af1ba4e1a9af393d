package io.metaquorum.metadata.log.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing acknowledged depends on unsynced data: a {@link SyncTracedWriter} runs under
 * {@code strace}, and {@link DurabilityChecker} judges every acknowledgement against the WAL and
 * snapshot syncs in the trace. The same writer with the WAL sync removed must be rejected, so
 * the check is shown to fail when durability does.
 *
 * <p>Skipped only where {@code strace} is not installed (.ci/run installs it and lists the
 * skip as allowed); an {@code strace} that is present but cannot trace fails the test.
 */
class DurabilityTraceTest {
    private static final String TRACED_CALLS = "write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,"
            + "sync_file_range,rename,renameat,renameat2";
    private static final int ACKNOWLEDGED_BATCHES = SyncTracedWriter.ROUNDS * SyncTracedWriter.BATCHES_PER_ROUND;

    @TempDir
    Path directory;

    @Test
    void everyAcknowledgementOfTheLogIsCoveredByASync() throws Exception {
        DurabilityReport report = traceWriter("synced");

        assertEquals(List.of(), report.violations());
        assertEquals(ACKNOWLEDGED_BATCHES, report.offsetsAcknowledged());
        assertEquals(1, report.snapshotsAcknowledged());
    }

    @Test
    void aWriterWithoutTheWalSyncIsRejected() throws Exception {
        DurabilityReport report = traceWriter("unsynced");

        assertEquals(ACKNOWLEDGED_BATCHES, report.offsetsAcknowledged());
        assertEquals(ACKNOWLEDGED_BATCHES, report.violations().size(), String.join("\n", report.violations()));
        String first = report.violations().get(0);
        assertTrue(first.matches("offset 0: written to .*/rocksdb/\\d+\\.log at line \\d+, acknowledged at line \\d+"
                + " with no fsync or fdatasync of that file in between"), first);
    }

    private DurabilityReport traceWriter(String mode) throws Exception {
        Path strace = findOnPath("strace");
        Assumptions.assumeTrue(strace != null, "strace is not installed");
        Path trace = directory.resolve("trace.txt");
        Path marker = directory.resolve("acknowledged");
        Path output = directory.resolve("writer.out");
        // -y names the file behind every descriptor, so no open or close needs tracking; -s
        // prints whole WAL writes, so each batch's tag is in the trace.
        Process writer = new ProcessBuilder(strace.toString(), "-f", "-tt", "-y", "-s", "65536",
                "-o", trace.toString(), "-e", "trace=" + TRACED_CALLS,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + directory, "-cp", System.getProperty("java.class.path"),
                SyncTracedWriter.class.getName(), mode, directory.resolve("log").toString(), marker.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        // A bound against a hung child, not a timing assumption: the writer waits for nothing.
        assertTrue(writer.waitFor(5, TimeUnit.MINUTES), "traced writer did not finish");
        assertEquals(0, writer.exitValue(), Files.readString(output));
        return DurabilityChecker.check(SyscallTrace.parse(Files.readAllLines(trace)), marker.toString());
    }

    private static Path findOnPath(String program) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(entry, program);
            if (!entry.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}

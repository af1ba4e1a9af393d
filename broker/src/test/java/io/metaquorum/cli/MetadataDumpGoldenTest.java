package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.raft.TopicIds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code mq-metadata dump}'s output, byte for byte, pinned by golden files under
 * {@code src/test/resources/dump-golden/}: a log holding every record type
 * ({@link EveryRecordLogFixture}) dumped as text and JSON, filtered and not, and a snapshot.
 * The golden files were written by the dump of before its printer wrote bytes itself; each
 * dump is checked both as a test's writer receives it and as the bytes main writes to stdout.
 */
class MetadataDumpGoldenTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "every-record.txt|",
        "every-record.json|--json",
        "partitions.txt|--type PartitionRecord",
        "partitions.json|--type partition --json",
        "window.txt|--from-offset 9 --max-records 5",
        "topic.txt|--topic TOPIC_ID",
        "topic.json|--topic TOPIC_ID --json",
    })
    void everyRecordType(String golden, String options) throws IOException {
        EveryRecordLogFixture.write(dir);
        assertDumps(golden, options);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "snapshot.txt|--snapshot 16-2",
        "snapshot.json|--snapshot 16-2 --json",
        "after-snapshot.txt|",
    })
    void aSnapshotAndTheLogAfterIt(String golden, String options) throws IOException {
        MetadataLogFixture.writeWithSnapshot(dir);
        assertDumps(golden, options);
    }

    private void assertDumps(String golden, String options) throws IOException {
        String[] extra = options == null ? new String[0]
                : options.replace("TOPIC_ID", TopicIds.toBase64(EveryRecordLogFixture.TOPIC)).split(" ");
        String[] args = new String[extra.length + 3];
        args[0] = "dump";
        args[1] = "--data-dir";
        args[2] = dir.toString();
        System.arraycopy(extra, 0, args, 3, extra.length);
        CliRun run = CliRun.of(MetadataTool::run, args);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(read(golden), run.out());
        // As run from main: the bytes go to the stream under the writer.
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        assertEquals(0, MetadataTool.run(args, new ByteStreamPrintWriter(stdout), new PrintWriter(err, true)),
                err.toString());
        assertArrayEquals(read(golden).getBytes(StandardCharsets.UTF_8), stdout.toByteArray());
    }

    private static String read(String golden) throws IOException {
        try (InputStream in = MetadataDumpGoldenTest.class.getResourceAsStream("/dump-golden/" + golden)) {
            if (in == null) {
                throw new IOException("no golden file dump-golden/" + golden);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

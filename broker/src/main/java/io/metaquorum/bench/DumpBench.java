package io.metaquorum.bench;

import io.metaquorum.common.io.Directories;
import io.metaquorum.metadata.tool.LogDirectory;
import io.metaquorum.metadata.tool.LogVerifier;
import io.metaquorum.metadata.tool.MetadataLogDump;
import io.metaquorum.metadata.tool.RecordFilter;
import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench dump}: writes a metadata log of about {@code --records} records through the
 * production log store (topics of 100 partitions, as CreateTopics appends them), then times
 * {@code mq-metadata dump}'s code path over it, text to {@code /dev/null}, and
 * {@code mq-metadata verify}'s; {@code --runs} measured runs after one unmeasured, medians.
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Records/s of mq-metadata dump (text, to /dev/null) and seconds of mq-metadata verify.")
final class DumpBench implements Callable<Integer> {
    private static final int PARTITIONS_PER_TOPIC = 99;

    @Option(names = "--records", description = "records in the log (default 1000000)")
    long records = 1_000_000;

    @Option(names = "--runs", description = "measured runs of each; the median is printed (default 3)")
    int runs = 3;

    @Option(names = "--data-dir", description = "where to write the log (default: a temporary directory, deleted)")
    Path dataDir;

    @Override
    public Integer call() throws IOException {
        if (records < 100 || runs < 1) {
            throw new IllegalArgumentException("--records must be >= 100 and --runs >= 1");
        }
        Path dir = dataDir != null ? dataDir : Files.createTempDirectory("mq-bench-dump-");
        try {
            long partitions = records * PARTITIONS_PER_TOPIC / (PARTITIONS_PER_TOPIC + 1);
            long endOffset = BenchMetadataLog.write(dir, partitions, PARTITIONS_PER_TOPIC, false);
            List<Double> dumpS = new ArrayList<>();
            List<Double> verifyS = new ArrayList<>();
            for (int run = 0; run <= runs; run++) {
                long start = System.nanoTime();
                long printed = dumpToDevNull(dir);
                double dumpSeconds = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                try (LogDirectory directory = LogDirectory.open(dir)) {
                    LogVerifier.verify(directory);
                }
                double verifySeconds = (System.nanoTime() - start) / 1e9;
                if (printed != endOffset) {
                    throw new IllegalStateException("dump printed " + printed + " records of " + endOffset);
                }
                if (run > 0) {
                    dumpS.add(dumpSeconds);
                    verifyS.add(verifySeconds);
                }
            }
            System.out.printf(Locale.ROOT, "# dump: %d records in %s; %d measured runs after 1 unmeasured; dump s: %s;"
                    + " verify s: %s%n", endOffset, dir, runs, dumpS, verifyS);
            System.out.println(AdminFigures.rate("dump_records_per_s", endOffset / AdminFigures.median(dumpS),
                    "records/s"));
            System.out.println(AdminFigures.seconds("verify_s", AdminFigures.median(verifyS)));
        } finally {
            if (dataDir == null) {
                Directories.deleteRecursively(dir);
            }
        }
        return 0;
    }

    private static long dumpToDevNull(Path dir) throws IOException {
        try (LogDirectory directory = LogDirectory.open(dir);
             PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
                     new FileOutputStream("/dev/null"), StandardCharsets.UTF_8), 1 << 16))) {
            return MetadataLogDump.dumpLog(directory.reader(), dir, new MetadataLogDump.Options(0, Long.MAX_VALUE,
                    RecordFilter.ALL, false), out);
        }
    }
}

package io.metaquorum.bench;

import io.metaquorum.common.io.Directories;
import java.io.IOException;
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
 * production log store (topics of 99 partitions, one batch each as CreateTopics appends
 * them), then times {@code bin/mq-metadata dump} over it, text to {@code /dev/null}, and
 * {@code bin/mq-metadata verify}, each a new process from start to exit (JVM start included);
 * {@code --runs} measured runs after one unmeasured, medians.
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
    public Integer call() throws IOException, InterruptedException {
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
                MetadataToolRuns.run(List.of("dump", "--data-dir", dir.toString()), true);
                double dumpSeconds = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                String report = MetadataToolRuns.run(List.of("verify", "--data-dir", dir.toString()), false);
                double verifySeconds = (System.nanoTime() - start) / 1e9;
                if (!report.contains("log: offsets [0, " + endOffset + ")")) {
                    throw new IllegalStateException("verify checked something else than [0, " + endOffset + "): "
                            + report);
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
}

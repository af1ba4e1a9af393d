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
 * {@code mq-bench shell-open}: writes a metadata log holding {@code --partitions} partitions
 * (topics of 100, replication factor 3) through the production log store, optionally with a
 * snapshot of it, then times {@code bin/mq-metadata shell --data-dir DIR --command pwd}, from
 * process start to exit: the JVM start, the read-only open, the replay and the
 * first command, i.e. the time until an interactive shell would show its first prompt.
 * {@code --runs} measured runs after one unmeasured; the median. With
 * {@code --bootstrap-controller} it writes nothing and times the live shell instead
 * ({@code shell --bootstrap-controller H:P --command pwd}: a short-lived observer that fetches the
 * committed log, and the snapshot when behind the log start, from the running quorum).
 */
@Command(name = "shell-open", mixinStandardHelpOptions = true,
        description = "ms from starting mq-metadata shell on a data dir to its first prompt.")
final class ShellOpenBench implements Callable<Integer> {
    private static final int PARTITIONS_PER_TOPIC = 100;

    @Option(names = "--partitions", description = "partitions in the image (default 1000000)")
    long partitions = 1_000_000;

    @Option(names = "--snapshot", description = "also install a snapshot of the final image (the shell then loads "
            + "the snapshot instead of replaying the log)")
    boolean snapshot;

    @Option(names = "--runs", description = "measured runs; the median is printed (default 3)")
    int runs = 3;

    @Option(names = "--data-dir", description = "where to write the log (default: a temporary directory, deleted)")
    Path dataDir;

    @Option(names = "--bootstrap-controller", paramLabel = "H:P",
            description = "time the live shell against this running quorum instead (nothing is written)")
    String bootstrapController;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (partitions < 1 || runs < 1) {
            throw new IllegalArgumentException("--partitions and --runs must be >= 1");
        }
        if (bootstrapController != null) {
            List<Double> times = timedRuns(List.of("shell", "--bootstrap-controller", bootstrapController, "--command", "pwd"));
            System.out.printf(Locale.ROOT, "# shell-open (live, %s): new JVM per run; %d measured after 1 unmeasured "
                    + "(ms): %s%n", bootstrapController, runs, times);
            System.out.println(AdminFigures.ms("live_shell_first_prompt_ms", AdminFigures.median(times)));
            return 0;
        }
        Path dir = dataDir != null ? dataDir : Files.createTempDirectory("mq-bench-shell-");
        try {
            long records = BenchMetadataLog.write(dir, partitions, PARTITIONS_PER_TOPIC, snapshot);
            List<Double> times = timedRuns(List.of("shell", "--data-dir", dir.toString(), "--command", "pwd"));
            System.out.printf(Locale.ROOT, "# shell-open: %d partitions, %d records in the log%s; new JVM per run; "
                    + "%d measured after 1 unmeasured (ms): %s%n", partitions, records,
                    snapshot ? " and in a snapshot" : "", runs, times);
            System.out.println(AdminFigures.ms("shell_first_prompt_ms", AdminFigures.median(times)));
        } finally {
            if (dataDir == null) {
                Directories.deleteRecursively(dir);
            }
        }
        return 0;
    }

    private List<Double> timedRuns(List<String> arguments) throws IOException, InterruptedException {
        List<Double> times = new ArrayList<>();
        for (int run = 0; run <= runs; run++) {
            double ms = openOnce(arguments);
            if (run > 0) {
                times.add(ms);
            }
        }
        return times;
    }

    private static double openOnce(List<String> arguments) throws IOException, InterruptedException {
        long start = System.nanoTime();
        String output = MetadataToolRuns.run(arguments, false);
        double ms = (System.nanoTime() - start) / 1e6;
        if (!output.strip().equals("/")) {
            throw new IllegalStateException("mq-metadata shell printed " + output.strip());
        }
        return ms;
    }
}

package io.metaquorum.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code bin/mq-metadata} as the user would (its own JVM and options), for the
 * inspection benchmarks: the figures then include everything a user waits for.
 */
final class MetadataToolRuns {
    static final long RUN_TIMEOUT_S = 900;

    private MetadataToolRuns() {
    }

    /**
     * Runs {@code bin/mq-metadata ARGS} to completion; returns its stdout, or nothing when
     * {@code discardOutput} sends it to {@code /dev/null}. A non-zero exit throws with its stderr.
     */
    static String run(List<String> args, boolean discardOutput) throws IOException, InterruptedException {
        String home = System.getProperty("mq.home");
        if (home == null) {
            throw new IllegalStateException("mq.home is not set: run the benchmark through bin/mq-bench");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(home, "bin", "mq-metadata").toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        if (discardOutput) {
            builder.redirectOutput(new File("/dev/null"));
        }
        Process process = builder.start();
        String output = discardOutput ? "" : new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(RUN_TIMEOUT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("mq-metadata " + args.get(0) + " did not finish in " + RUN_TIMEOUT_S + " s");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("mq-metadata " + args.get(0) + " exited " + process.exitValue() + ": "
                    + errors.strip());
        }
        return output;
    }
}

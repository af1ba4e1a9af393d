package io.metaquorum.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A node of a running cluster as a benchmark handles its process: by the pid in the
 * {@code server.pid} next to its properties file, started again with {@code bin/mq-server}
 * appending to its {@code server.log}.
 */
final class NodeProcesses {
    private static final Path MQ_HOME = Path.of(System.getProperty("mq.home", ".")).toAbsolutePath();

    private NodeProcesses() {
    }

    static ProcessHandle processOf(Path config) {
        return pidOf(config).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive)
                .orElseThrow(() -> new IllegalStateException("the node of " + config + " is not running (no live pid in "
                        + config.resolveSibling("server.pid") + ")"));
    }

    static Optional<Long> pidOf(Path config) {
        Path pidFile = config.resolveSibling("server.pid");
        try {
            return Files.exists(pidFile) ? Optional.of(Long.parseLong(Files.readString(pidFile).trim()))
                    : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    static void awaitExit(ProcessHandle process) {
        try {
            process.onExit().get(FailoverBench.stepDeadline() - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("process " + process.pid() + " did not exit", e);
        }
    }

    /** Starts {@code bin/mq-server CONFIG} in the background, its output appended to server.log. */
    static void start(Path config) {
        Path log = config.resolveSibling("server.log");
        try {
            new ProcessBuilder(MQ_HOME.resolve("bin/mq-server").toString(), config.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the node of " + config, e);
        }
    }
}

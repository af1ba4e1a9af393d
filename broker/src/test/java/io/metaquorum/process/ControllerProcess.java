package io.metaquorum.process;

import io.metaquorum.server.ProcessSignals;
import io.metaquorum.net.HostPort;
import io.metaquorum.server.ListenersFile;
import io.metaquorum.server.PidFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One node of a {@link ControllerCluster}: its directory ({@code server.properties},
 * {@code metadata/}, {@code server.log}, {@code server.pid}, {@code server.listeners}), its
 * address, and the {@code bin/mq-server} process running it, if any.
 *
 * <p>Its address: a voter listens on the port chosen for it in advance; every other node on
 * port 0, and {@link #awaitStarted} reads the port each incarnation got from
 * {@code server.listeners} (a restart gets a new one).
 *
 * <p>Signals go to the process by its pid. {@link #start} checks that the pid the node wrote
 * to {@code server.pid} is the pid of the process the test started: the script
 * {@code exec}s the JVM, so signalling that pid reaches the node itself, not a shell.
 *
 * <p>{@link #pause} freezes the process with SIGSTOP (its sockets stay open, nothing
 * resets) and {@link #resume} continues it with SIGCONT. Every other signal, and the cleanup
 * in {@link #destroy}, continues a paused process first, so no stopped process outlives a test.
 *
 * <p>Every incarnation appends to the same {@code server.log}; {@link #logMark} and
 * {@link #logSince} read what one incarnation (or any span of time) wrote.
 */
final class ControllerProcess {
    static final int EXIT_SIGKILL = 128 + 9;
    static final int EXIT_SIGTERM = 128 + 15;
    private static final long PID_FILE_WAIT_MS = 60_000;
    /** From the pid file to a bound, warmed-up server: opening the log, starting raft, the warm-up RPCs. */
    private static final long LISTENING_WAIT_MS = 60_000;
    private static final long EXIT_WAIT_MS = 60_000;
    private static final int LOG_TAIL_LINES = 25;

    private final int nodeId;
    /** What {@code listeners} says: port 0 for any free port; changed only by {@link #moveTo} while stopped. */
    private HostPort configuredListener;
    private final Path directory;
    /**
     * Where the latest incarnation serves. Invariant: the configured listener when its port is
     * fixed; with port 0, what the incarnation reported, null from its launch until then.
     */
    private HostPort address;
    /** The latest incarnation; null before the first start. */
    private Process process;
    /** Bytes in server.log when the latest incarnation started. */
    private long startMark;
    /** Invariant: true only between a SIGSTOP sent to the latest incarnation and the SIGCONT after it. */
    private boolean paused;

    ControllerProcess(int nodeId, HostPort configuredListener, Path directory) {
        this.nodeId = nodeId;
        this.configuredListener = configuredListener;
        this.directory = directory;
        this.address = configuredListener.port() == 0 ? null : configuredListener;
    }

    int nodeId() {
        return nodeId;
    }

    /** The node's {@code listeners}: port 0 for any free port. */
    HostPort configuredListener() {
        return configuredListener;
    }

    /** Where the latest incarnation serves (the port it bound, for port 0); see {@link #awaitStarted}. */
    HostPort address() {
        if (address == null) {
            throw new IllegalStateException("node " + nodeId + " has not reported its port yet (see awaitStarted)");
        }
        return address;
    }

    /**
     * The stopped node will listen at {@code listener} from its next start: the test rewrote
     * its configuration, as an operator moving it would.
     */
    void moveTo(HostPort listener) {
        if (isRunning()) {
            throw new IllegalStateException("node " + nodeId + " runs (pid " + process.pid() + "): stop it first");
        }
        configuredListener = listener;
        address = listener.port() == 0 ? null : listener;
    }

    Path configFile() {
        return directory.resolve("server.properties");
    }

    Path metadataDir() {
        return directory.resolve("metadata");
    }

    /** A broker's {@code log.dirs} (one directory). */
    Path logDirs() {
        return directory.resolve("logs");
    }

    Path logFile() {
        return directory.resolve("server.log");
    }

    /** The node JVM's java.io.tmpdir, private to this node so tests can see what it leaves there. */
    Path tmpDir() {
        return directory.resolve("tmp");
    }

    Path pidFile() {
        return directory.resolve(PidFile.FILE_NAME);
    }

    Path listenersFile() {
        return directory.resolve(ListenersFile.FILE_NAME);
    }

    /** Where a node with {@code metrics.listener} reports the address its metrics endpoint bound. */
    Path metricsFile() {
        return directory.resolve(ListenersFile.METRICS_FILE_NAME);
    }

    /** Starts {@code bin/mq-server server.properties}; returns as {@link #awaitStarted} does. */
    void start(MetaquorumScripts scripts) {
        launch(scripts);
        awaitStarted();
    }

    /** Starts {@code bin/mq-server server.properties} and returns at once; see {@link #awaitStarted}. */
    void launch(MetaquorumScripts scripts) {
        if (isRunning()) {
            throw new IllegalStateException("node " + nodeId + " runs already (pid " + process.pid() + ")");
        }
        startMark = logMark();
        paused = false;
        if (configuredListener.port() == 0) {
            address = null;
        }
        try {
            Files.createDirectories(tmpDir());
            ProcessBuilder command = scripts.command("mq-server", List.of(configFile().toString()));
            command.environment().put("MQ_JAVA_OPTS", String.join(" ", MetaquorumScripts.TEST_JVM_OPTS) + " -Djava.io.tmpdir=" + tmpDir());
            process = command
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(logFile().toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start bin/mq-server for node " + nodeId, e);
        }
    }

    /**
     * Waits until the incarnation {@link #launch} started wrote its pid and, for port 0, until
     * it reported the port it bound, which becomes {@link #address}.
     */
    void awaitStarted() {
        awaitPidFile();
        if (address == null) {
            address = awaitListener();
        }
    }

    /**
     * Waits until server.pid holds the pid of the process {@link #launch} started: the script
     * exec'd the JVM, which got through its configuration checks.
     */
    private void awaitPidFile() {
        requireStarted();
        long pid = process.pid();
        BoundedWait.until("node " + nodeId + " writes its pid " + pid + " to " + pidFile(), PID_FILE_WAIT_MS,
                () -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("node " + nodeId + " exited with " + process.exitValue()
                                + " at start-up:\n" + logTail());
                    }
                    return readPidFile().filter(written -> written == pid);
                }, this::logTail);
    }

    /**
     * Waits until server.listeners exists and returns its listener. Called once server.pid
     * names this incarnation: the node deleted any file an earlier one left before writing
     * its pid, so the file is this incarnation's.
     */
    private HostPort awaitListener() {
        return BoundedWait.until("node " + nodeId + " reports its bound port in " + listenersFile(),
                LISTENING_WAIT_MS, () -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("node " + nodeId + " exited with " + process.exitValue()
                                + " before it listened:\n" + logTail());
                    }
                    return ListenersFile.read(listenersFile()).map(listeners -> listeners.get(0));
                }, this::logTail);
    }

    boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The pid of the latest incarnation. */
    long pid() {
        requireStarted();
        return process.pid();
    }

    /** The exit status of the latest incarnation once it ended. */
    Optional<Integer> exitCode() {
        return process == null || process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    Optional<Long> readPidFile() {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile(), StandardCharsets.UTF_8).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** kill -9 by pid; returns the exit status once the process is gone. */
    int killHard() {
        signal(true);
        return awaitExit(EXIT_WAIT_MS);
    }

    /** SIGTERM by pid (a graceful stop: a leader resigns first); returns the exit status. */
    int terminate() {
        signal(false);
        return awaitExit(EXIT_WAIT_MS);
    }

    /** SIGSTOP by pid: the process freezes with its connections open, until {@link #resume}. */
    void pause() {
        requireStarted();
        if (paused) {
            throw new IllegalStateException("node " + nodeId + " (pid " + process.pid() + ") is paused already");
        }
        ProcessSignals.stop(process.pid());
        paused = true;
    }

    /** SIGCONT by pid to a process {@link #pause} stopped. */
    void resume() {
        requireStarted();
        if (!paused) {
            throw new IllegalStateException("node " + nodeId + " (pid " + process.pid() + ") is not paused");
        }
        ProcessSignals.resume(process.pid());
        paused = false;
    }

    /** Whether the latest incarnation was stopped by {@link #pause} and not resumed since. */
    boolean isPaused() {
        return paused;
    }

    /** Sends SIGKILL ({@code force}) or SIGTERM to the running incarnation by its pid, continuing it first if paused. */
    void signal(boolean force) {
        requireStarted();
        if (paused) {
            resume();
        }
        ProcessHandle handle = ProcessHandle.of(process.pid()).orElseThrow(
                () -> new AssertionError("node " + nodeId + " (pid " + process.pid() + ") is not running"));
        boolean sent = force ? handle.destroyForcibly() : handle.destroy();
        if (!sent) {
            throw new AssertionError("could not signal node " + nodeId + " (pid " + process.pid() + ")");
        }
    }

    /** Waits up to {@code waitMs} for the latest incarnation to end; returns its exit status. */
    int awaitExit(long waitMs) {
        requireStarted();
        try {
            if (!process.waitFor(waitMs, TimeUnit.MILLISECONDS)) {
                throw new AssertionError("node " + nodeId + " (pid " + process.pid() + ") still runs after "
                        + waitMs + " ms:\n" + logTail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for node " + nodeId, e);
        }
        return process.exitValue();
    }

    /**
     * Cleanup: SIGCONT by pid if paused, SIGKILL by pid if still running, then wait for the
     * end. Never throws for a gone process.
     */
    void destroy() {
        if (process == null) {
            return;
        }
        if (paused && process.isAlive()) {
            try {
                resume();
            } catch (RuntimeException e) {
                System.err.println("could not continue node " + nodeId + " (pid " + process.pid() + "): " + e);
            }
        }
        paused = false;
        ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The current length of server.log, a position for {@link #logSince}. */
    long logMark() {
        try {
            return Files.exists(logFile()) ? Files.size(logFile()) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What server.log holds from {@code mark} on. */
    String logSince(long mark) {
        try {
            if (!Files.exists(logFile())) {
                return "";
            }
            byte[] bytes = Files.readAllBytes(logFile());
            int from = (int) Math.min(mark, bytes.length);
            return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the latest incarnation logged. */
    String logOfThisIncarnation() {
        return logSince(startMark);
    }

    /** The last lines of server.log, for failure messages. */
    String logTail() {
        List<String> lines = logSince(0).lines().toList();
        return "--- node " + nodeId + " " + logFile() + " (last " + LOG_TAIL_LINES + " lines)\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    }

    private void requireStarted() {
        if (process == null) {
            throw new IllegalStateException("node " + nodeId + " was never started");
        }
    }
}

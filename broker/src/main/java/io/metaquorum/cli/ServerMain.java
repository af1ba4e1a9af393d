package io.metaquorum.cli;

import io.metaquorum.common.fault.ProcessTerminatingFaultHandler;
import io.metaquorum.server.ConfigException;
import io.metaquorum.server.ListenersFile;
import io.metaquorum.server.NodeContextOutputStream;
import io.metaquorum.server.NodeServer;
import io.metaquorum.server.PidFile;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code mq-server FILE}: runs one node in the foreground with the roles of its
 * {@code process.roles}.
 *
 * <p>Start-up, each step stopping with one line on stderr: parse and validate the
 * configuration; refuse what is not supported yet; require {@code metadata.log.dir} to be
 * formatted for this {@code node.id}; write {@code server.pid} next to the file; start the
 * node; write {@code server.listeners} next to the file with the address it bound (the port
 * a {@code listeners=HOST:0} got), and {@code server.metrics} with the metrics endpoint's
 * address when {@code metrics.listener} is set. SIGTERM (the JVM's shutdown hook, in place before the node
 * starts, so a SIGTERM during the start waits for it to end) stops it gracefully: a
 * broker first has its leaderships moved away, a leader resigns, then the transport and the
 * database close and the files are removed.
 *
 * <p>No logger is touched before the node context is installed on stdout/stderr, so every
 * log line carries {@code [node N]}.
 */
@Command(name = "mq-server", mixinStandardHelpOptions = true,
        description = "Runs one metaquorum node in the foreground with the roles in its process.roles.")
public final class ServerMain implements Callable<Integer> {
    /** How long a stop signal waits for a start under way (log recovery, the warm-up) before the process exits. */
    private static final long START_WAIT_ON_STOP_MS = 60_000;

    @Mixin
    VerboseOption verbose;

    @Parameters(index = "0", paramLabel = "FILE", description = "The node's server.properties.")
    Path configFile;

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new ServerMain(), args,
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!Files.isRegularFile(configFile)) {
            throw new CommandFailure("configuration file " + configFile + " does not exist");
        }
        ServerConfig config;
        try {
            config = ServerConfig.load(configFile);
        } catch (ConfigException e) {
            throw new CommandFailure("invalid configuration in " + configFile + ": " + e.getMessage(), e);
        }
        String clusterId;
        try {
            clusterId = StorageFormatter.requireFormatted(config, configFile);
        } catch (IllegalStateException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
        NodeContextOutputStream.install(config.nodeId());
        ListenersFile listenersFile = ListenersFile.nextTo(configFile);
        ListenersFile metricsFile = ListenersFile.metricsNextTo(configFile);
        PidFile pidFile;
        try {
            pidFile = PidFile.create(configFile, List.of(listenersFile.path(), metricsFile.path()));
        } catch (IllegalStateException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
        // The hook goes in before the node starts: a SIGTERM during the start (log recovery, raft
        // already voting or leading, the warm-up) must stop the node gracefully too, once it has started.
        AtomicReference<NodeServer> server = new AtomicReference<>();
        CountDownLatch startEnded = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        long shutdownTimeoutMs = config.raftTimeouts().requestTimeoutMs();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                awaitStartEnded(startEnded);
                if (server.get() != null) {
                    server.get().shutdown(shutdownTimeoutMs);
                }
            } finally {
                listenersFile.delete();
                metricsFile.delete();
                pidFile.delete();
                stopped.countDown();
            }
        }, "shutdown-" + config.nodeId()));
        try {
            server.set(NodeServer.start(config, clusterId, new ProcessTerminatingFaultHandler()));
            listenersFile.write(List.of(server.get().listener()));
            server.get().metricsListener().ifPresent(address -> metricsFile.write(List.of(address)));
        } catch (RuntimeException e) {
            throw new CommandFailure("cannot start: " + CommandLines.describeFailure(e), e);
        } finally {
            startEnded.countDown();
        }
        stopped.await();
        return CommandLines.EXIT_OK;
    }

    /** The shutdown hook waits for a start under way, bounded: a start that hangs must not keep the process alive. */
    private static void awaitStartEnded(CountDownLatch startEnded) {
        try {
            if (!startEnded.await(START_WAIT_ON_STOP_MS, TimeUnit.MILLISECONDS)) {
                System.err.println("the node did not finish starting within " + START_WAIT_ON_STOP_MS
                        + " ms of the stop signal; exiting without a graceful stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

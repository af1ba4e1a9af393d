package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.io.Directories;
import io.metaquorum.process.MetaquorumScripts.RunningTool;
import io.metaquorum.process.MetaquorumScripts.ToolRun;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md's "## A tour", command by command, read from the README when the test runs (so
 * the README cannot drift from what is tested) and run with bash from the repository root as
 * written, but for {@link ReadmeTour#rewrite}: a free base port instead of 19090 and a
 * temporary data dir instead of quickstart-data. Each line is one bash run
 * ({@code set -euo pipefail}); a variable a line assigns ({@code leader}) is carried to the
 * next lines. The shell gets its commands on stdin; the node the tour restarts in the
 * background is tracked by its pid. Every line must exit 0 and print what the tour promises
 * (a read-only line cut short by its tool's own deadline may run again, see {@link #run}).
 *
 * <p>{@code bin/mq-simulate} runs from the simulation module, which the reactor builds after
 * this one (bin/lib/common.sh would start a nested Maven build of it under the running
 * nodes): its line is run by simulation-tests' {@code ReadmeTourSimulationTest}, from the
 * same block. Whatever happens, {@code bin/mq-quickstart stop} runs at the end and every
 * process the tour started is then killed by its pid.
 */
class ReadmeTourProcessTest {
    private static final long QUICKSTART_WAIT_MS = 180_000;
    private static final long TOOL_WAIT_MS = 60_000;
    private static final long STATE_WAIT_MS = 60_000;
    private static final int NODES = 6;
    /** Runs of a read-only line that a tool's own deadline cut short (an overloaded machine), at most. */
    private static final int DEADLINE_ATTEMPTS = 3;
    private static final Pattern ASSIGNMENT = Pattern.compile("^(\\w+)=");
    private static final Pattern LEADER_ID = Pattern.compile("(?m)^LeaderId:\\s+(-?\\d+)$");
    private static final Pattern PARTITION = Pattern.compile(
            "\\tTopic: (\\S+)\\tPartition: (\\d+)\\tLeader: (-?\\d+)\\tReplicas: ([\\d,]+)\\tIsr: ([\\d,]*)");
    private static final Pattern REPLICATION_ROW = Pattern.compile(
            "(?m)^(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\S+\\s+\\S+\\s+(Leader|Follower|Observer)$");

    /** What the tour does, line by line, in its order: a README line that is none of these fails the test. */
    private enum Step {
        QUICKSTART(false, "bin/mq-quickstart"),
        CREATE(false, "bin/mq-topics --bootstrap-server \\S+ --create --topic orders --partitions 6 --replication-factor 3"),
        DESCRIBE(true, "bin/mq-topics --bootstrap-server \\S+ --describe --topic orders"),
        REPLICATION(true, "bin/mq-metadata quorum --bootstrap-controller \\S+ --replication"),
        FIND_LEADER(true, "leader=\\$\\(bin/mq-metadata quorum --bootstrap-controller \\S+ --json \\| sed .*\\)"),
        KILL_LEADER(false, "kill -9 \"\\$\\(cat quickstart-data/node-\\$leader/server.pid\\)\""),
        ASK_SURVIVOR(true, "bin/mq-metadata quorum --bootstrap-controller 127.0.0.1:1909\\$\\(\\(leader % 3 \\+ 1\\)\\)"),
        RESTART(false, "bin/mq-server quickstart-data/node-\\$leader/server.properties &"),
        SHELL(true, "bin/mq-metadata shell --bootstrap-controller \\S+"),
        SIMULATE(false, "bin/mq-simulate .*--timeline run.html"),
        STOP(false, "bin/mq-quickstart stop");

        /** Changes nothing: may run again when a tool's deadline passed before it was answered. */
        private final boolean readOnly;
        private final Pattern line;

        Step(boolean readOnly, String line) {
            this.readOnly = readOnly;
            this.line = Pattern.compile(line);
        }

        static Step of(String command) {
            return Arrays.stream(values()).filter(step -> step.line.matcher(command).matches()).findFirst()
                    .orElseThrow(() -> new AssertionError("a README tour line this test does not know; teach"
                            + " ReadmeTourProcessTest what it must print: " + command));
        }
    }

    @TempDir
    Path work;
    private final MetaquorumScripts scripts = MetaquorumScripts.ofThisCheckout();
    private final List<ProcessHandle> started = new CopyOnWriteArrayList<>();
    private Map<String, String> environment;
    private int base;
    private int step;
    private Step current;

    /** Should the test JVM itself be ended (a fork timeout), the nodes go with it. */
    private final Thread killOnExit = new Thread(this::killByPid);

    @BeforeEach
    void armKillOnExit() {
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    @AfterEach
    void stopAndKillWhatItStarted(TestInfo test) {
        try {
            if (environment != null) {
                scripts.runScript(work, "cleanup-stop", QUICKSTART_WAIT_MS, environment, "mq-quickstart", "stop");
            }
        } finally {
            killByPid();
            Runtime.getRuntime().removeShutdownHook(killOnExit);
            keepLogs(ProcessTestNames.of(test));
        }
    }

    /** Kills every node by the pid in its server.pid, and the node the tour started in the background. */
    private void killByPid() {
        for (int node = 1; node <= NODES; node++) {
            Path pidFile = data().resolve("node-" + node).resolve("server.pid");
            try {
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).ifPresent(ProcessHandle::destroyForcibly);
            } catch (IOException | NumberFormatException noneOrGone) {
                // No pid file (never started, or stopped): nothing to kill.
            }
        }
        started.forEach(ProcessHandle::destroyForcibly);
    }

    /** Each line's output and each node's server.log, kept under target/process-test-logs/NAME. */
    private void keepLogs(String name) {
        Path target = Path.of(System.getProperty("user.dir"), "target", "process-test-logs", name);
        try (Stream<Path> files = Files.list(work)) {
            Directories.deleteRecursively(target);
            Files.createDirectories(target);
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, target.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            for (int node = 1; node <= NODES; node++) {
                Path log = data().resolve("node-" + node).resolve("server.log");
                if (Files.exists(log)) {
                    Files.copy(log, target.resolve("node-" + node + ".log"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            System.err.println("could not keep the tour's logs in " + target + ": " + e);
        }
    }

    private Path data() {
        return work.resolve("data");
    }

    @Test
    void everyCommandOfTheReadmeTourWorks() throws Exception {
        base = PreassignedPorts.freeBase(NODES);
        environment = Map.of("MQ_DATA_DIR", data().toString(), "MQ_BASE_PORT", Integer.toString(base),
                "MQ_METRICS_BASE_PORT", Integer.toString(PreassignedPorts.freeBase(NODES)),
                "MQ_KAFKA_BASE_PORT", Integer.toString(PreassignedPorts.freeBase(NODES)));
        Files.writeString(work.resolve("tour-state.sh"), "");
        List<String> commands = ReadmeTour.commands(scripts.home().resolve("README.md"));
        List<Step> steps = commands.stream().map(Step::of).toList();
        assertEquals(List.of(Step.values()), steps, "the tour's lines, one of each in this order: " + commands);
        for (String command : commands) {
            String line = ReadmeTour.rewrite(command, base, data(), work.resolve("run.html"));
            check(Step.of(command), line);
        }
    }

    private void check(Step kind, String line) throws Exception {
        current = kind;
        switch (kind) {
            case QUICKSTART -> {
                String out = run(line, QUICKSTART_WAIT_MS, null).out();
                assertTrue(out.contains("Created topic demo.") && LEADER_ID.matcher(out).find(), out);
            }
            case CREATE -> assertTrue(run(line).out().contains("Created topic orders."), line);
            case DESCRIBE -> {
                String out = run(line).out();
                Matcher partition = PARTITION.matcher(out);
                int partitions = 0;
                while (partition.find()) {
                    partitions++;
                    assertEquals("orders", partition.group(1), out);
                    assertEquals(3, partition.group(4).split(",").length, out);
                }
                assertEquals(6, partitions, out);
            }
            case REPLICATION -> {
                String out = run(line).out();
                assertEquals(List.of("Follower", "Follower", "Leader"), voterStatuses(out), out);
            }
            case FIND_LEADER -> {
                run(line);
                assertTrue(leader() >= 1 && leader() <= 3, "a controller: " + leader());
            }
            case KILL_LEADER -> killLeader(line);
            case ASK_SURVIVOR -> askSurvivor(line);
            case RESTART -> restart(line);
            case SHELL -> shell(line);
            case SIMULATE -> {
                // Run by simulation-tests' ReadmeTourSimulationTest (see the class comment).
            }
            case STOP -> {
                String out = run(line).out();
                for (int node = 1; node <= NODES; node++) {
                    assertTrue(out.contains("stopped node " + node + " (pid "), out);
                }
                for (ProcessHandle process : started) {
                    BoundedWait.until("the restarted node stops", STATE_WAIT_MS,
                            () -> process.isAlive() ? Optional.empty() : Optional.of(true), () -> out);
                }
            }
            default -> throw new AssertionError(kind);
        }
    }

    private static List<String> voterStatuses(String replication) {
        List<String> statuses = new ArrayList<>();
        Matcher row = REPLICATION_ROW.matcher(replication);
        while (row.find()) {
            if (Integer.parseInt(row.group(1)) <= 3) {
                statuses.add(row.group(4));
            }
        }
        return statuses.stream().sorted().toList();
    }

    private int leader() throws IOException {
        return Integer.parseInt(Files.readString(work.resolve("tour-var-leader")).trim());
    }

    private long pidOf(int node) throws IOException {
        return Long.parseLong(Files.readString(data().resolve("node-" + node).resolve("server.pid")).trim());
    }

    private void killLeader(String line) throws IOException {
        ProcessHandle victim = ProcessHandle.of(pidOf(leader())).orElseThrow();
        run(line);
        BoundedWait.until("the killed leader exits", STATE_WAIT_MS,
                () -> victim.isAlive() ? Optional.empty() : Optional.of(true), () -> "pid " + victim.pid());
    }

    /** The survivor's report names a new leader: the tour's line, run again until it does (a new election). */
    private void askSurvivor(String line) throws IOException {
        int killed = leader();
        AtomicReference<ToolRun> last = new AtomicReference<>();
        int leader = BoundedWait.until("a survivor names a leader other than " + killed, STATE_WAIT_MS, () -> {
            ToolRun asked = runUnchecked(line, TOOL_WAIT_MS, null);
            last.set(asked);
            Matcher id = LEADER_ID.matcher(asked.out());
            return asked.exitCode() == 0 && id.find() && Integer.parseInt(id.group(1)) > 0
                    && Integer.parseInt(id.group(1)) != killed ? Optional.of(Integer.parseInt(id.group(1)))
                    : Optional.empty();
        }, () -> String.valueOf(last.get()));
        assertTrue(leader >= 1 && leader <= 3, last.get().out());
    }

    /** The node started in the background writes its pid, rejoins as a follower and catches up to lag 0. */
    private void restart(String line) throws Exception {
        int node = leader();
        run(line);
        Path serverOutput = stepOutput(step);
        ProcessHandle restarted = ProcessHandle.of(Long.parseLong(Files.readString(work.resolve("tour-background.pid"))
                .trim())).orElseThrow(() -> new AssertionError("the restarted node exited at once"));
        started.add(restarted);
        String controllers = "127.0.0.1:" + (base + 1) + ",127.0.0.1:" + (base + 2) + ",127.0.0.1:" + (base + 3);
        Pattern caughtUp = Pattern.compile("(?m)^" + node + "\\s+\\d+\\s+0\\s+\\S+\\s+\\S+\\s+Follower$");
        AtomicReference<String> last = new AtomicReference<>("");
        BoundedWait.until("node " + node + " rejoins as a follower with lag 0", STATE_WAIT_MS, () -> {
            if (!restarted.isAlive()) {
                throw new AssertionError("the restarted node exited: " + readQuietly(serverOutput));
            }
            ToolRun report = scripts.runTool(work, "rejoin-" + System.nanoTime(), TOOL_WAIT_MS, "mq-metadata",
                    "quorum", "--bootstrap-controller", controllers, "--replication");
            last.set(report.out() + report.err());
            return caughtUp.matcher(report.out()).find() && pidFileNames(node, restarted) ? Optional.of(true)
                    : Optional.empty();
        }, last::get);
    }

    private boolean pidFileNames(int node, ProcessHandle process) {
        try {
            return pidOf(node) == process.pid();
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    /** The shell, fed three commands on stdin, lists the tour's topics and orders' six partitions. */
    private void shell(String line) throws IOException {
        Path input = Files.writeString(work.resolve("shell-input.txt"), "ls /topics\nls /topics/orders\nexit\n");
        String out = run(line, TOOL_WAIT_MS, input).out();
        List<String> words = Arrays.stream(out.split("\\s+")).toList();
        for (String expected : List.of("demo", "orders", "id", "0", "1", "2", "3", "4", "5")) {
            assertTrue(words.contains(expected), expected + " in: " + out);
        }
    }

    private ToolRun run(String line) {
        return run(line, TOOL_WAIT_MS, null);
    }

    /**
     * Runs one tour line; it must exit 0. A read-only line whose tool gave up at its own
     * deadline (DEADLINE_EXCEEDED: a JVM too starved to connect in time) runs again, up to
     * {@value #DEADLINE_ATTEMPTS} times in all; any other failure fails at once.
     */
    private ToolRun run(String line, long waitMs, Path stdin) {
        ToolRun run = runUnchecked(line, waitMs, stdin);
        for (int attempt = 1; attempt < DEADLINE_ATTEMPTS && current.readOnly && run.exitCode() != 0
                && run.err().contains("DEADLINE_EXCEEDED"); attempt++) {
            run = runUnchecked(line, waitMs, stdin);
        }
        assertEquals(0, run.exitCode(), line + "\nstdout: " + run.out() + "\nstderr: " + run.err());
        return run;
    }

    /**
     * Runs one tour line with bash from the repository root, the variables earlier lines set
     * sourced first, and the ones it sets saved after it ({@code tour-var-NAME} holds each
     * value); a line ending in {@code &} leaves its pid in {@code tour-background.pid}.
     */
    private ToolRun runUnchecked(String line, long waitMs, Path stdin) {
        step++;
        Path state = work.resolve("tour-state.sh");
        StringBuilder script = new StringBuilder("set -euo pipefail\nsource '" + state + "'\n").append(line).append('\n');
        Matcher assignment = ASSIGNMENT.matcher(line);
        if (assignment.find()) {
            String name = assignment.group(1);
            script.append("declare -p ").append(name).append(" >> '").append(state).append("'\n")
                    .append("printf '%s' \"$").append(name).append("\" > '").append(work.resolve("tour-var-" + name))
                    .append("'\n");
        }
        if (line.endsWith("&")) {
            script.append("echo $! > '").append(work.resolve("tour-background.pid")).append("'\n");
        }
        Path out = stepOutput(step);
        Path err = work.resolve("tour-" + step + ".err");
        ProcessBuilder builder = scripts.bash(script.toString()).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(stdin == null ? new File("/dev/null") : stdin.toFile());
        builder.environment().putAll(environment);
        try {
            return new RunningTool(line, builder.start(), out, err).await(waitMs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run bash", e);
        }
    }

    private Path stepOutput(int n) {
        return work.resolve("tour-" + n + ".out");
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}

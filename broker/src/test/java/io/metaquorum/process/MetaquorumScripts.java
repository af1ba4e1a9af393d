package io.metaquorum.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code bin/} scripts of this checkout, run as the tests' child processes. They get
 * the test JVM's classpath through {@code MQ_CLASSPATH} (bin/lib/common.sh then builds
 * nothing, so the tests run on a clean clone during {@code mvn verify}) and the test JVM's
 * JDK through {@code JAVA_HOME}.
 */
final class MetaquorumScripts {
    /** Heap of each node: three of them share a 2-core CI machine with the test JVM. */
    private static final String SERVER_HEAP_OPTS = "-Xms64m -Xmx256m";
    /**
     * JVM options of every node and tool the tests start: C1 only, and no bytecode verification
     * of the classpath's classes (javac's own output and the dependencies' jars; the JDK's
     * classes are never verified). A test's JVM lives seconds to minutes, and C2's compiler
     * threads and the verifier would take more of the 2-core CI machine than its own work: a
     * fresh bin/mq-quickstart took 34-38% less CPU and was ready 9-11 s sooner with both
     * (docs/testing.md). Neither changes what the code does.
     */
    static final List<String> TEST_JVM_OPTS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UnlockDiagnosticVMOptions",
            "-XX:-BytecodeVerificationRemote");

    private final Path home;
    private final String classPath;
    /** Set for every command after the test runtime's own variables, so it may override them. */
    private final Map<String, String> environment;

    private MetaquorumScripts(Path home, String classPath, Map<String, String> environment) {
        this.home = home;
        this.classPath = classPath;
        this.environment = Map.copyOf(environment);
    }

    /** The checkout the tests run in: the first directory above the working directory holding bin/mq-server. */
    static MetaquorumScripts ofThisCheckout() {
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("bin").resolve("mq-server"))) {
                String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
                return new MetaquorumScripts(dir, classPath, Map.of());
            }
        }
        throw new IllegalStateException("no bin/mq-server in " + start + " or above it");
    }

    /**
     * These scripts with every directory of the classpath packed into a jar of its own under
     * {@code jarDirectory}: what {@code bin/mq-server} needs for a class-data archive, since
     * the JVM archives classes from jars only.
     */
    MetaquorumScripts withJarsOnly(Path jarDirectory) {
        return new MetaquorumScripts(home, ClassPathJars.jarsOnly(classPath, jarDirectory), environment);
    }

    /** These scripts with {@code name=value} in every command's environment. */
    MetaquorumScripts withEnvironment(String name, String value) {
        Map<String, String> more = new TreeMap<>(environment);
        more.put(name, value);
        return new MetaquorumScripts(home, classPath, more);
    }

    /** The checkout's root directory, where bin/ is. */
    Path home() {
        return home;
    }

    /** A process builder for {@code bin/SCRIPT ARGS...} with the test classpath and JDK. */
    ProcessBuilder command(String script, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin").resolve(script).toString());
        command.addAll(args);
        return withTestRuntime(new ProcessBuilder(command));
    }

    /**
     * A process builder for {@code bash -c SCRIPT} in the checkout's root directory, where
     * {@code bin/...} names the scripts as a reader of the README would type them, with the
     * test classpath and JDK as {@link #command}.
     */
    ProcessBuilder bash(String script) {
        return withTestRuntime(new ProcessBuilder("bash", "-c", script).directory(home.toFile()));
    }

    private ProcessBuilder withTestRuntime(ProcessBuilder builder) {
        Map<String, String> variables = builder.environment();
        variables.put("MQ_CLASSPATH", classPath);
        variables.put("JAVA_HOME", System.getProperty("java.home"));
        variables.put("MQ_HEAP_OPTS", SERVER_HEAP_OPTS);
        variables.put("MQ_JAVA_OPTS", String.join(" ", TEST_JVM_OPTS));
        variables.putAll(environment);
        return builder;
    }

    /**
     * Starts a short-lived tool, its stdout and stderr going to {@code NAME.out} and
     * {@code NAME.err} in {@code workDirectory}; {@link RunningTool#await} collects it.
     */
    RunningTool startTool(Path workDirectory, String name, String script, String... args) {
        Path out = workDirectory.resolve(name + ".out");
        Path err = workDirectory.resolve(name + ".err");
        try {
            Files.createDirectories(workDirectory);
            Process process = command(script, List.of(args)).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            return new RunningTool("bin/" + script + " " + String.join(" ", args), process, out, err);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start bin/" + script, e);
        }
    }

    /** Runs {@code bin/SCRIPT ARGS...} to its end with {@code environment} added; output as {@link #startTool}. */
    ToolRun runScript(Path workDirectory, String name, long waitMs, Map<String, String> environment, String script,
                      String... args) {
        Path out = workDirectory.resolve(name + ".out");
        Path err = workDirectory.resolve(name + ".err");
        try {
            Files.createDirectories(workDirectory);
            ProcessBuilder builder = command(script, List.of(args)).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().putAll(environment);
            return new RunningTool("bin/" + script + " " + String.join(" ", args), builder.start(), out, err)
                    .await(waitMs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start bin/" + script, e);
        }
    }

    /** Runs a short-lived tool to its end; see {@link #startTool} and {@link RunningTool#await}. */
    ToolRun runTool(Path workDirectory, String name, long waitMs, String script, String... args) {
        return startTool(workDirectory, name, script, args).await(waitMs);
    }

    /** A tool started by {@link #startTool}. */
    record RunningTool(String commandLine, Process process, Path out, Path err) {
        /** Waits up to {@code waitMs} for the tool to end; one still running then is killed and the call fails. */
        ToolRun await(long waitMs) {
            try {
                if (!process.waitFor(waitMs, TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(commandLine + " still runs after " + waitMs + " ms");
                }
                return new ToolRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while " + commandLine + " ran", e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** One finished run of a tool: its exit status and what it printed. */
    record ToolRun(int exitCode, String out, String err) {
    }
}

package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.net.HostPort;
import io.metaquorum.server.ClusterIds;
import io.metaquorum.server.InitialControllers;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/mq-server}'s class-data archive (docs/commands.md, "mq-server"), run as an
 * operator meets it: a node without an archive writes a candidate at its exit after SIGTERM;
 * the next start checks it and maps it; a truncated candidate of a dead node is deleted
 * without crashing the start, a running node's candidate is left alone, and a node killed
 * with kill -9 leaves no usable candidate behind. One single-voter controller, on a classpath
 * of jars only (the JVM archives nothing from a directory).
 */
class ServerArchiveProcessTest {
    private static final long WAIT_MS = 60_000;
    /** The archive's name on the JDK this test runs: the JDK's AOT cache from 25 on, a CDS archive before. */
    private static final String ARCHIVE = "mq-server-controller-" + javaVersion()
            + (Runtime.version().feature() >= 25 ? ".aot" : ".jsa");

    @TempDir
    Path work;

    private Path archives;
    private MetaquorumScripts scripts;
    private ControllerProcess node;

    @BeforeEach
    void formatOneController() throws IOException {
        archives = work.resolve("cds");
        scripts = MetaquorumScripts.ofThisCheckout().withJarsOnly(work.resolve("jars"))
                .withEnvironment("MQ_CDS_DIR", archives.toString());
        HostPort listener = new HostPort("127.0.0.1", PreassignedPorts.freeBase(1) + 1);
        node = new ControllerProcess(1, listener, Files.createDirectories(work.resolve("node-1")));
        Files.writeString(node.configFile(), "process.roles=controller\nnode.id=1\ncontroller.quorum.voters=1@"
                + listener + "\nlisteners=" + listener + "\nmetadata.log.dir=" + node.metadataDir() + "\n",
                StandardCharsets.UTF_8);
        ServerConfig config = ServerConfig.load(node.configFile());
        StorageFormatter.format(config, ClusterIds.random(),
                Optional.of(InitialControllers.parse("1@" + listener + ":" + ClusterIds.random())), false, line -> { });
    }

    @AfterEach
    void killTheNode() {
        node.destroy();
    }

    @Test
    void aCandidateWrittenAtSigtermIsCheckedMappedAndADamagedOneIsDeleted() throws Exception {
        Path archive = archives.resolve(ARCHIVE);

        startAndAwaitServing();
        long first = node.pid();
        assertTrue(commandLine(first).contains("=" + archive + "." + first + ".new"),
                "without an archive the node is told to write a candidate named by its pid: " + commandLine(first));
        assertFalse(mapsFile(first, ARCHIVE), "nothing to map yet");
        assertEquals(ControllerProcess.EXIT_SIGTERM, node.terminate(), node.logTail());
        Path candidate = archives.resolve(ARCHIVE + "." + first + ".new");
        assertTrue(Files.size(candidate) > 0, "SIGTERM wrote " + candidate + ": " + listing());

        startAndAwaitServing();
        long second = node.pid();
        assertTrue(Files.isRegularFile(archive) && !Files.exists(candidate),
                "the next start checked the candidate and moved it in place: " + listing());
        assertTrue(commandLine(second).contains("=" + archive + " "), commandLine(second));
        assertTrue(mapsFile(second, ARCHIVE), "the node mapped " + archive);
        assertEquals(ControllerProcess.EXIT_SIGTERM, node.terminate(), node.logTail());
        assertEquals(List.of(ARCHIVE), listing(), "a node with a current archive writes no candidate");

        // A node killed while writing left half an archive; a node still running owns the other.
        long dead = deadPid();
        Path truncated = archives.resolve(ARCHIVE + "." + dead + ".new");
        byte[] whole = Files.readAllBytes(archive);
        Files.write(truncated, Arrays.copyOf(whole, whole.length / 2));
        Path running = archives.resolve(ARCHIVE + "." + ProcessHandle.current().pid() + ".new");
        Files.write(running, new byte[] {1, 2, 3});
        Files.delete(archive);

        startAndAwaitServing();
        long third = node.pid();
        assertFalse(Files.exists(truncated), "the truncated candidate failed its check and was deleted: "
                + listing());
        assertTrue(Files.exists(running), "the candidate of a running process is left alone: " + listing());
        assertFalse(Files.exists(archive), listing().toString());
        assertFalse(mapsFile(third, ARCHIVE), "the node started without an archive");
        assertTrue(commandLine(third).contains("=" + archive + "." + third + ".new"), commandLine(third));

        assertEquals(ControllerProcess.EXIT_SIGKILL, node.killHard(), node.logTail());
        Files.delete(running);
        startAndAwaitServing();
        long fourth = node.pid();
        assertFalse(Files.exists(archive), "kill -9 wrote no archive that could be promoted: " + listing());
        assertFalse(Files.exists(archives.resolve(ARCHIVE + "." + third + ".new")), listing().toString());
        assertTrue(commandLine(fourth).contains("=" + archive + "." + fourth + ".new"), commandLine(fourth));
    }

    /** Starts the node and waits for its "node started" line, so that its archive holds a serving node's classes. */
    private void startAndAwaitServing() {
        node.start(scripts);
        BoundedWait.until("node 1 logs node started", WAIT_MS, () -> {
            if (!node.isRunning()) {
                throw new AssertionError("node 1 exited at start-up:\n" + node.logTail());
            }
            return node.logOfThisIncarnation().contains("node started") ? Optional.of(true) : Optional.empty();
        }, node::logTail);
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> files = Files.list(archives)) {
            return files.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("mq-server-")).sorted()
                    .toList();
        }
    }

    private static String commandLine(long pid) throws IOException {
        return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8)
                .replace('\0', ' ');
    }

    private static boolean mapsFile(long pid, String fileName) throws IOException {
        return Files.readString(Path.of("/proc", Long.toString(pid), "maps"), StandardCharsets.UTF_8)
                .contains("/" + fileName + "\n");
    }

    /** The pid of a process that has ended: a pid no process holds now. */
    private static long deadPid() throws Exception {
        Process process = new ProcessBuilder("true").start();
        assertTrue(process.waitFor(WAIT_MS, TimeUnit.MILLISECONDS), "true ends");
        long pid = process.pid();
        assertTrue(ProcessHandle.of(pid).isEmpty(), "pid " + pid + " is free");
        return pid;
    }

    /** As bin/lib/common.sh names the JDK: its release file's JAVA_VERSION. */
    private static String javaVersion() {
        try {
            return Files.readAllLines(Path.of(System.getProperty("java.home"), "release")).stream()
                    .filter(line -> line.startsWith("JAVA_VERSION=\"") && line.endsWith("\""))
                    .map(line -> line.substring("JAVA_VERSION=\"".length(), line.length() - 1))
                    .findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}

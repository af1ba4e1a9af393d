package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Same seed, same run, bit for bit: in this JVM, with the timeline recorded, and in a fresh JVM. */
class SimDeterminismTest {
    private static final long FRESH_JVM_WAIT_S = 120;

    private static SimulationOptions options(long seed) {
        return SimulationOptions.defaults(seed).withEvents(6000);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 77, 1234})
    void theSameSeedGivesTheSameLine(long seed) {
        SimulationResult first = Simulation.run(options(seed));
        SimulationResult second = Simulation.run(options(seed));
        assertEquals(first.summaryLine(), second.summaryLine());
        assertEquals(String.valueOf(first.failure()), String.valueOf(second.failure()));
        assertEquals(first.failureEvent(), second.failureEvent());
    }

    @Test
    void recordingATimelineDoesNotChangeTheRun() {
        assertEquals(Simulation.run(options(5)).summaryLine(), Simulation.run(options(5).withTimeline(true)).summaryLine());
    }

    @Test
    void differentSeedsGiveDifferentRuns() {
        assertNotEquals(Simulation.run(options(8)).trace(), Simulation.run(options(9)).trace());
    }

    /** Identity hash codes and hash-order iteration differ between JVMs: a fresh one must agree. */
    @Test
    void aFreshJvmGivesTheSameLine() throws IOException, InterruptedException {
        String expected = Simulation.run(options(11)).summaryLine();
        assertEquals(expected, firstLineOfFreshJvm("--seed", "11", "--events", "6000"));
    }

    /** The system layer draws from its own streams and iterates nothing by hash: same seed, same run, here and in a fresh JVM. */
    @Test
    void aSystemRunIsTheSameTwiceAndInAFreshJvm() throws IOException, InterruptedException {
        SimulationOptions system = SimulationOptions.systemDefaults(3).withEvents(8000);
        SimulationResult first = Simulation.run(system);
        SimulationResult second = Simulation.run(system);
        assertEquals(first.summaryLine(), second.summaryLine());
        assertEquals(first.system(), second.system());
        assertEquals(first.summaryLine(), firstLineOfFreshJvm("--system", "--seed", "3", "--events", "8000"));
    }

    /** Runs mq-simulate's main in a new JVM, waiting at most {@link #FRESH_JVM_WAIT_S} for it; its first output line. */
    private static String firstLineOfFreshJvm(String... args) throws IOException, InterruptedException {
        Path out = Files.createTempFile("sim-determinism", ".txt");
        try {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-cp", System.getProperty("java.class.path"), "io.metaquorum.sim.cli.SimulateCommand"));
            command.addAll(List.of(args));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!process.waitFor(FRESH_JVM_WAIT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(FRESH_JVM_WAIT_S, TimeUnit.SECONDS);
                throw new AssertionError("the fresh JVM did not finish within " + FRESH_JVM_WAIT_S + " s");
            }
            return Files.readAllLines(out, StandardCharsets.UTF_8).get(0);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}

package io.metaquorum.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code bin/mq-simulate} line of README.md's "## A tour", read from the README when the
 * test runs and run with bash from the repository root as written, but for its timeline
 * ({@code run.html}), which goes to a temporary directory. The broker module's
 * {@code ReadmeTourProcessTest} runs every other line of the tour; this one is here because
 * the script runs from this module, which the reactor builds after broker: MQ_SIM_CLASSPATH
 * hands it this test's classpath, so it builds nothing.
 */
class ReadmeTourSimulationTest {
    private static final long WAIT_S = 300;
    private static final String TIMELINE = "--timeline run.html";

    @TempDir
    Path work;

    @Test
    void theToursSimulationPassesAndDrawsItsTimeline() throws Exception {
        Path home = checkout();
        List<String> simulate = tourCommands(home.resolve("README.md")).stream()
                .filter(line -> line.startsWith("bin/mq-simulate ")).toList();
        assertEquals(1, simulate.size(), "one bin/mq-simulate line in the tour: " + simulate);
        assertTrue(simulate.get(0).endsWith(TIMELINE), "its timeline is run.html: " + simulate);
        Path timeline = work.resolve("run.html");
        String line = simulate.get(0).replace(TIMELINE, "--timeline " + timeline);
        Path out = work.resolve("simulate.out");
        Path err = work.resolve("simulate.err");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "set -euo pipefail\n" + line).directory(home.toFile())
                .redirectInput(new File("/dev/null")).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("MQ_SIM_CLASSPATH",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MQ_JAVA_OPTS");
        Process process = builder.start();
        try {
            assertTrue(process.waitFor(WAIT_S, TimeUnit.SECONDS), line + " still runs after " + WAIT_S + " s");
        } finally {
            process.destroyForcibly();
        }
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), line + "\n" + printed + Files.readString(err, StandardCharsets.UTF_8));
        assertTrue(printed.contains("1 passed, 0 failed") && printed.contains("timeline of seed 7 written to "
                + timeline), printed);
        String html = Files.readString(timeline, StandardCharsets.UTF_8);
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("</html>") && html.length() > 1000,
                "a self-contained HTML page: " + html.length() + " characters");
    }

    private static Path checkout() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("bin").resolve("mq-simulate"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no bin/mq-simulate above " + Path.of("").toAbsolutePath());
    }

    /** The command lines of the tour's ```sh block, trailing comments left out (as ReadmeTour in broker's tests). */
    private static List<String> tourCommands(Path readme) throws Exception {
        List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        int heading = lines.indexOf("## A tour");
        assertTrue(heading >= 0, readme + " has no '## A tour'");
        int open = lines.subList(heading, lines.size()).indexOf("```sh") + heading;
        int close = lines.subList(open + 1, lines.size()).indexOf("```") + open + 1;
        assertTrue(open > heading && close > open, "no ```sh block under '## A tour'");
        return lines.subList(open + 1, close).stream().map(l -> l.replaceFirst("\\s+#\\s.*$", "").strip())
                .filter(l -> !l.isEmpty()).toList();
    }
}

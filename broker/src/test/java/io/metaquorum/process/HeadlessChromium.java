package io.metaquorum.process;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real browser for the status page's test: Debian's {@code chromium} (or the binary named
 * by {@code MQ_CHROMIUM}) in headless mode, one process per page load, each with a profile
 * of its own in a temporary directory. The page's script gets {@link #SCRIPT_BUDGET_MS} of
 * virtual time to fetch its data and draw; the process is ended by its pid, with its
 * children, if it has not finished within {@link #RUN_LIMIT_S}.
 */
final class HeadlessChromium {
    /** Virtual time the page's script may run before the DOM or the screenshot is taken. */
    static final int SCRIPT_BUDGET_MS = 3_000;
    private static final long RUN_LIMIT_S = 60;
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");

    private final Path binary;

    private HeadlessChromium(Path binary) {
        this.binary = binary;
    }

    /** The browser of {@code MQ_CHROMIUM}, else the first of {@link #NAMES} on the PATH. */
    static Optional<HeadlessChromium> find() {
        String configured = System.getenv("MQ_CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(new HeadlessChromium(Path.of(configured)));
        }
        String path = System.getenv("PATH");
        for (String name : NAMES) {
            for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(new HeadlessChromium(candidate));
                }
            }
        }
        return Optional.empty();
    }

    /** The page's DOM once its script ran, serialized. */
    String dumpDom(String url) {
        return new String(run(List.of("--dump-dom", url)), StandardCharsets.UTF_8);
    }

    /** Saves a PNG of the page, {@code width} x {@code height}, once its script ran. */
    void screenshot(String url, Path png, int width, int height) {
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new AssertionError("cannot create the directory of " + png + ": " + e, e);
        }
        run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars", url));
        if (!Files.isRegularFile(png)) {
            throw new AssertionError("chromium wrote no screenshot to " + png);
        }
    }

    private byte[] run(List<String> arguments) {
        Path profile = null;
        Process process = null;
        try {
            profile = Files.createTempDirectory("mq-chromium-");
            List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox",
                    "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                    "--user-data-dir=" + profile,
                    "--virtual-time-budget=" + SCRIPT_BUDGET_MS));
            command.addAll(arguments);
            Path log = profile.resolve("chromium.log");
            Path out = profile.resolve("chromium.out");
            process = new ProcessBuilder(command).redirectError(log.toFile()).redirectOutput(out.toFile()).start();
            if (!process.waitFor(RUN_LIMIT_S, TimeUnit.SECONDS)) {
                throw new AssertionError("chromium did not finish within " + RUN_LIMIT_S + " s: " + command);
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("chromium exited with " + process.exitValue() + ": " + command + "\n"
                        + Files.readString(log));
            }
            return Files.readAllBytes(out);
        } catch (IOException e) {
            throw new AssertionError("running " + binary + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            if (process != null && process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            deleteQuietly(profile);
        }
    }

    private static void deleteQuietly(Path directory) {
        if (directory == null) {
            return;
        }
        try (var paths = Files.walk(directory)) {
            paths.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + directory + ": " + e);
        }
    }
}

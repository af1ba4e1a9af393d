package io.metaquorum.server;

import io.metaquorum.net.HostPort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code server.listeners} next to the node's properties file while it serves
 * (docs/commands.md): one {@code HOST:PORT} line per listener, with the port the node
 * actually bound. With {@code listeners=HOST:0} this is how a script or a test learns the
 * ephemeral port, without reading the log.
 *
 * <p>Lifecycle: a file left by an earlier process (kill -9 removes nothing) is deleted
 * before the new pid goes into {@code server.pid} ({@link PidFile#create}); the new file
 * appears, whole (written aside, then renamed), once the node has started (its gRPC server
 * bound and warmed up); a clean exit deletes it. So once {@code server.pid} names a live
 * process, a {@code server.listeners} beside it is that process's.
 *
 * <p>{@code server.metrics} is the same kind of file for the Prometheus endpoint
 * ({@code metrics.listener}, docs/metrics.md): one {@code HOST:PORT} line, the port it bound;
 * absent while the endpoint is off.
 */
public final class ListenersFile {
    public static final String FILE_NAME = "server.listeners";
    public static final String METRICS_FILE_NAME = "server.metrics";

    private final Path path;
    private final String fileName;
    /** What this process wrote; empty before {@link #write}. Read by the shutdown hook's thread. */
    private volatile Optional<String> written = Optional.empty();

    private ListenersFile(Path path, String fileName) {
        this.path = path;
        this.fileName = fileName;
    }

    /** The file next to {@code configFile}; nothing is read or written yet. */
    public static ListenersFile nextTo(Path configFile) {
        return new ListenersFile(configFile.toAbsolutePath().getParent().resolve(FILE_NAME), FILE_NAME);
    }

    /** {@code server.metrics} next to {@code configFile}: the metrics endpoint's bound address. */
    public static ListenersFile metricsNextTo(Path configFile) {
        return new ListenersFile(configFile.toAbsolutePath().getParent().resolve(METRICS_FILE_NAME),
                METRICS_FILE_NAME);
    }

    public Path path() {
        return path;
    }

    /** Writes {@code listeners}, one per line, replacing the file at once (never half written). */
    public void write(List<HostPort> listeners) {
        String text = listeners.stream().map(HostPort::toString).collect(Collectors.joining("\n", "", "\n"));
        Path temp = path.resolveSibling(fileName + ".tmp");
        try {
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
        written = Optional.of(text);
    }

    /**
     * The listeners in {@code file}, empty while it does not exist; throws
     * {@link IllegalArgumentException} for a line that is not {@code HOST:PORT}.
     */
    public static Optional<List<HostPort>> read(Path file) {
        try {
            return Optional.of(Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.isBlank()).map(HostPort::parse).toList());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Deletes the file if it still holds what this process wrote. */
    public void delete() {
        if (written.isEmpty()) {
            return;
        }
        try {
            if (Files.readString(path, StandardCharsets.UTF_8).equals(written.get())) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // Gone already, or left behind: the next start deletes it before writing its pid.
        }
    }
}

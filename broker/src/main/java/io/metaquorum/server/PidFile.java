package io.metaquorum.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;

/**
 * {@code server.pid} next to the node's properties file while it runs (docs/commands.md), so
 * scripts stop a node by its process id. A file left by a process that is gone is
 * replaced; one of a live process stops the second start.
 */
public final class PidFile {
    public static final String FILE_NAME = "server.pid";

    private final Path path;
    private final long pid;

    private PidFile(Path path, long pid) {
        this.path = path;
        this.pid = pid;
    }

    /**
     * Writes this process's id; throws {@link IllegalStateException} if another live node owns
     * the file. Before the id is written, deletes {@code leftOvers}: files an earlier process
     * kept beside this one while it ran ({@link ListenersFile}), which a kill -9 left behind.
     * A reader who sees the new pid then never reads the earlier process's files.
     */
    public static PidFile create(Path configFile, List<Path> leftOvers) {
        Path parent = configFile.toAbsolutePath().getParent();
        Path path = parent.resolve(FILE_NAME);
        long pid = ProcessHandle.current().pid();
        Optional<Long> existing = readPid(path);
        if (existing.isPresent() && existing.get() != pid
                && ProcessHandle.of(existing.get()).map(ProcessHandle::isAlive).orElse(false)) {
            throw new IllegalStateException("another mq-server (pid " + existing.get() + ") runs with "
                    + configFile + " (see " + path + "); stop it first");
        }
        for (Path leftOver : leftOvers) {
            try {
                Files.deleteIfExists(leftOver);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + leftOver + ": " + e.getMessage(), e);
            }
        }
        try {
            Path temp = parent.resolve(FILE_NAME + ".tmp");
            Files.writeString(temp, pid + "\n", StandardCharsets.UTF_8);
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
        return new PidFile(path, pid);
    }

    static Optional<Long> readPid(Path path) {
        try {
            return Optional.of(Long.parseLong(Files.readString(path, StandardCharsets.UTF_8).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    public Path path() {
        return path;
    }

    /** Deletes the file if it still holds this process's id. */
    public void delete() {
        if (readPid(path).map(p -> p == pid).orElse(false)) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // Left behind: the next start sees the pid is not alive and replaces it.
            }
        }
    }
}

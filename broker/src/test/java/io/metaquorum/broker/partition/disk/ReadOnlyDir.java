package io.metaquorum.broker.partition.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Makes a directory refuse new entries for real: mode 555, or, where that does not stop the
 * user (root), the immutable attribute ({@code chattr +i}). Skips the test when neither works.
 */
final class ReadOnlyDir {
    private final Path dir;
    private boolean immutable;
    private boolean undone;

    private ReadOnlyDir(Path dir) {
        this.dir = dir;
    }

    static ReadOnlyDir make(Path dir) throws IOException, InterruptedException {
        ReadOnlyDir readOnly = new ReadOnlyDir(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        if (refusesWrites(dir)) {
            return readOnly;
        }
        readOnly.immutable = chattr("+i", dir);
        if (readOnly.immutable && refusesWrites(dir)) {
            return readOnly;
        }
        readOnly.undo();
        Assumptions.abort("cannot make " + dir + " read-only here (neither mode 555 nor chattr +i stops this user)");
        return readOnly;
    }

    void undo() throws IOException, InterruptedException {
        if (undone) {
            return;
        }
        undone = true;
        if (immutable) {
            chattr("-i", dir);
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static boolean refusesWrites(Path dir) {
        Path probe = dir.resolve("probe");
        try {
            Files.createDirectory(probe);
            Files.delete(probe);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Runs chattr and waits for it; false when it is missing or fails. */
    private static boolean chattr(String flag, Path dir) throws InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder("chattr", flag, dir.toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return false;
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            return false;
        }
        return process.exitValue() == 0;
    }
}

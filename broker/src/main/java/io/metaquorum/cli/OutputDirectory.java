package io.metaquorum.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The directory mq-certs writes into. Every check is made before the first file is written,
 * so a refused command leaves nothing half done: the directory can be made and written, and
 * no file would be replaced without {@code --force}.
 */
final class OutputDirectory {
    /** Writes one file; the library calls that write key stores and PEM files. */
    interface FileWrite {
        void to(Path file) throws IOException;
    }

    private final Path directory;
    private final PrintWriter out;

    private OutputDirectory(Path directory, PrintWriter out) {
        this.directory = directory;
        this.out = out;
    }

    static OutputDirectory prepare(Path directory, List<String> fileNames, boolean force, PrintWriter out) {
        Path absolute = directory.toAbsolutePath().normalize();
        try {
            Files.createDirectories(absolute);
        } catch (IOException e) {
            throw new CommandFailure("cannot create the directory " + absolute + ": " + CommandLines.describe(e), e);
        }
        if (!Files.isWritable(absolute)) {
            throw new CommandFailure(absolute + " is not writable");
        }
        for (String name : fileNames) {
            Path file = absolute.resolve(name);
            if (Files.exists(file) && !force) {
                throw new CommandFailure(file + " exists; use --force to replace it");
            }
            if (Files.isDirectory(file)) {
                throw new CommandFailure(file + " is a directory");
            }
        }
        return new OutputDirectory(absolute, out);
    }

    Path file(String name) {
        return directory.resolve(name);
    }

    /** Writes {@code name} and prints {@code wrote <path> (<what>)}. */
    Path write(String name, String what, FileWrite write) {
        Path file = file(name);
        try {
            write.to(file);
        } catch (IOException e) {
            throw new CommandFailure("cannot write " + file + ": " + CommandLines.describe(e), e);
        }
        out.println("wrote " + file + " (" + what + ")");
        return file;
    }
}

package io.metaquorum.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes the small files {@code mq-storage format} leaves in a directory atomically and
 * durably (temporary file, fsync, rename, directory fsync): after a crash the file is there
 * whole or not at all.
 */
final class DurableTextFile {
    private DurableTextFile() {
    }

    /** Creates {@code dir} if needed and writes {@code text} to {@code dir/fileName}. */
    static void write(Path dir, String fileName, String text) {
        try {
            Files.createDirectories(dir);
            Path temp = dir.resolve(fileName + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                channel.write(StandardCharsets.UTF_8.encode(text));
                channel.force(true);
            }
            Files.move(temp, dir.resolve(fileName), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(fileName) + ": " + e.getMessage(), e);
        }
    }
}

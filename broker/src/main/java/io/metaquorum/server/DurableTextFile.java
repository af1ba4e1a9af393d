package io.metaquorum.server;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Properties;

/**
 * Writes the small files {@code mq-storage format} leaves in a directory atomically and
 * durably (temporary file, fsync, rename, directory fsync): after a crash the file is there
 * whole or not at all; and reads them back as properties.
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

    /** The properties in {@code dir/fileName}; empty when there is no such file, an error naming it when it is broken. */
    static Optional<Properties> readProperties(Path dir, String fileName) {
        Path file = dir.resolve(fileName);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException(file + " cannot be read: " + e.getMessage());
        }
        return Optional.of(properties);
    }
}

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
 * The {@code meta.properties} file that marks a formatted directory (Kafka's format,
 * version 1): {@code version=1}, {@code cluster.id}, {@code node.id}. Written atomically
 * (temporary file, fsync, rename, directory fsync), so a crash leaves either no file or a
 * complete one.
 */
public record MetaProperties(String clusterId, int nodeId) {
    public static final String FILE_NAME = "meta.properties";
    public static final int VERSION = 1;

    /** The file in {@code dir}, if the directory is formatted; a broken file is an error naming it. */
    public static Optional<MetaProperties> read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException(file + " cannot be read: " + e.getMessage());
        }
        String version = properties.getProperty("version", "").trim();
        if (!version.equals(Integer.toString(VERSION))) {
            throw new IllegalStateException(file + " has version '" + version + "', expected " + VERSION);
        }
        String clusterId = properties.getProperty("cluster.id", "").trim();
        try {
            ClusterIds.validate(clusterId);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(file + ": " + e.getMessage());
        }
        String nodeId = properties.getProperty("node.id", "").trim();
        try {
            return Optional.of(new MetaProperties(clusterId, Integer.parseInt(nodeId)));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + " has node.id '" + nodeId + "', expected an integer");
        }
    }

    /** Creates {@code dir} if needed and writes the file into it atomically and durably. */
    public void write(Path dir) {
        String text = "#\n# Written by mq-storage format. Do not edit.\n#\n"
                + "version=" + VERSION + "\ncluster.id=" + clusterId + "\nnode.id=" + nodeId + "\n";
        try {
            Files.createDirectories(dir);
            Path temp = dir.resolve(FILE_NAME + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                channel.write(StandardCharsets.UTF_8.encode(text));
                channel.force(true);
            }
            Files.move(temp, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(FILE_NAME) + ": " + e.getMessage(), e);
        }
    }
}

package io.metaquorum.server;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * The {@code meta.properties} file that marks a formatted directory (Kafka's format,
 * version 1): {@code version=1}, {@code cluster.id}, {@code node.id} and {@code directory.id}
 * (KIP-853: a random id per formatted directory, so a wiped and reformatted voter is told
 * from the one that was). A file written before directory ids has none: {@link TopicIds#ZERO}.
 * Written atomically ({@link DurableTextFile}), so a crash leaves either no file or a complete one.
 */
public record MetaProperties(String clusterId, int nodeId, Uuid directoryId) {
    public static final String FILE_NAME = "meta.properties";
    public static final int VERSION = 1;

    /** A directory without a directory id (as formatted before KIP-853). */
    public MetaProperties(String clusterId, int nodeId) {
        this(clusterId, nodeId, TopicIds.ZERO);
    }

    public boolean hasDirectoryId() {
        return !TopicIds.ZERO.equals(directoryId);
    }

    /** The file in {@code dir}, if the directory is formatted; a broken file is an error naming it. */
    public static Optional<MetaProperties> read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        Optional<Properties> read = DurableTextFile.readProperties(dir, FILE_NAME);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        Properties properties = read.get();
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
        int id;
        try {
            id = Integer.parseInt(nodeId);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + " has node.id '" + nodeId + "', expected an integer");
        }
        String directoryId = properties.getProperty("directory.id", "").trim();
        if (directoryId.isEmpty()) {
            return Optional.of(new MetaProperties(clusterId, id));
        }
        try {
            return Optional.of(new MetaProperties(clusterId, id, DirectoryIds.parse(directoryId)));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(file + " has directory.id '" + directoryId + "': " + e.getMessage());
        }
    }

    /** Creates {@code dir} if needed and writes the file into it atomically and durably. */
    public void write(Path dir) {
        String text = "#\n# Written by mq-storage format. Do not edit.\n#\n"
                + "version=" + VERSION + "\ncluster.id=" + clusterId + "\nnode.id=" + nodeId + "\n"
                + (hasDirectoryId() ? "directory.id=" + TopicIds.toBase64(directoryId) + "\n" : "");
        DurableTextFile.write(dir, FILE_NAME, text);
    }
}

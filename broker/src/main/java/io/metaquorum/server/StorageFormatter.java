package io.metaquorum.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code mq-storage format}: writes {@code meta.properties} into the node's
 * {@code metadata.log.dir} and, for brokers, every {@code log.dirs} entry. A directory that
 * is already formatted stops the command unless {@code ignoreFormatted}, in which case it is
 * left untouched (Kafka's {@code --ignore-formatted}).
 */
public final class StorageFormatter {
    private StorageFormatter() {
    }

    /** The directories a node keeps data in, metadata first, without duplicates. */
    public static List<Path> dataDirs(ServerConfig config) {
        Set<Path> dirs = new LinkedHashSet<>();
        dirs.add(config.metadataLogDir());
        dirs.addAll(config.logDirs());
        return new ArrayList<>(dirs);
    }

    /**
     * Formats every data directory of {@code config}; reports each directory on
     * {@code out}. Throws {@link IllegalStateException} for a formatted directory without
     * {@code ignoreFormatted}; nothing is written then.
     */
    public static void format(ServerConfig config, String clusterId, boolean ignoreFormatted, Consumer<String> out) {
        ClusterIds.validate(clusterId);
        List<Path> toFormat = new ArrayList<>();
        for (Path dir : dataDirs(config)) {
            Optional<MetaProperties> existing = MetaProperties.read(dir);
            if (existing.isEmpty()) {
                toFormat.add(dir);
            } else if (ignoreFormatted) {
                out.accept("Skipping " + dir + ": already formatted (cluster.id " + existing.get().clusterId()
                        + ", node.id " + existing.get().nodeId() + ")");
            } else {
                throw new IllegalStateException(dir + " is already formatted (cluster.id "
                        + existing.get().clusterId() + ", node.id " + existing.get().nodeId()
                        + "); use --ignore-formatted to leave it as it is");
            }
        }
        MetaProperties meta = new MetaProperties(clusterId, config.nodeId());
        for (Path dir : toFormat) {
            meta.write(dir);
            out.accept("Formatted " + dir + " with cluster.id " + clusterId + " and node.id " + config.nodeId());
        }
    }

    /**
     * What {@code mq-server} checks before it opens anything: the metadata directory is
     * formatted for this node. Returns the cluster id; throws {@link IllegalStateException}
     * with the line to print.
     */
    public static String requireFormatted(ServerConfig config, Path configFile) {
        Path dir = config.metadataLogDir();
        MetaProperties meta = MetaProperties.read(dir).orElseThrow(() -> new IllegalStateException(
                "metadata.log.dir " + dir + " is not formatted; run: bin/mq-storage format --config " + configFile
                        + " --cluster-id $(bin/mq-storage random-uuid)"));
        if (meta.nodeId() != config.nodeId()) {
            throw new IllegalStateException(dir.resolve(MetaProperties.FILE_NAME) + " belongs to node.id "
                    + meta.nodeId() + " but " + configFile + " says node.id=" + config.nodeId());
        }
        for (Path logDir : config.logDirs()) {
            MetaProperties other = MetaProperties.read(logDir).orElseThrow(() -> new IllegalStateException(
                    "log.dirs entry " + logDir + " is not formatted; run bin/mq-storage format"));
            if (!other.equals(meta)) {
                throw new IllegalStateException(logDir.resolve(MetaProperties.FILE_NAME) + " (cluster.id "
                        + other.clusterId() + ", node.id " + other.nodeId() + ") does not match " + dir);
            }
        }
        return meta.clusterId();
    }
}

package io.metaquorum.server;

import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code mq-storage format}: writes {@code meta.properties} into the node's
 * {@code metadata.log.dir} and, for brokers, every {@code log.dirs} entry, each with a random
 * directory id of its own (KIP-853), and for a controller given {@code --initial-controllers}
 * or {@code --no-initial-controllers} the {@link BootstrapVoters} file, and for one given
 * {@code --add-scram} the {@link BootstrapScram} file. A directory that is
 * already formatted stops the command unless {@code ignoreFormatted}, in which case it is
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
        format(config, clusterId, Optional.empty(), ignoreFormatted, out);
    }

    /**
     * As above, for a quorum that keeps its voter set in the log: {@code initialVoters} is the
     * parsed {@code --initial-controllers} ({@link VoterSet#EMPTY} for
     * {@code --no-initial-controllers}; absent for neither: the static voters). The node's own
     * entry's directory id becomes its metadata directory's. Throws
     * {@link IllegalArgumentException} naming the flag for a set that does not fit the config.
     */
    public static void format(ServerConfig config, String clusterId, Optional<VoterSet> initialVoters,
                              boolean ignoreFormatted, Consumer<String> out) {
        format(config, clusterId, initialVoters, List.of(), ignoreFormatted, out);
    }

    /**
     * As above, with the SCRAM credentials of {@code --add-scram} ({@link ScramArguments}): a
     * controller's metadata directory gets them as the {@link BootstrapScram} file. A node that is
     * not a controller ignores them, as Kafka's brokers do, and says so: only a controller
     * bootstraps the metadata log.
     */
    public static void format(ServerConfig config, String clusterId, Optional<VoterSet> initialVoters,
                              List<MetadataRecord> scramRecords, boolean ignoreFormatted, Consumer<String> out) {
        ClusterIds.validate(clusterId);
        initialVoters.ifPresent(voters -> checkInitialVoters(config, voters));
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
        for (Path dir : toFormat) {
            boolean metadata = dir.equals(config.metadataLogDir());
            Uuid directoryId = metadata ? initialVoters.map(v -> v.directoryIdOf(config.nodeId()))
                    .filter(id -> !TopicIds.ZERO.equals(id)).orElseGet(DirectoryIds::random) : DirectoryIds.random();
            if (metadata && initialVoters.isPresent()) {
                // Before meta.properties: a directory is formatted once that file exists.
                BootstrapVoters.write(dir, initialVoters.get());
            }
            if (metadata && config.isController() && !scramRecords.isEmpty()) {
                BootstrapScram.write(dir, scramRecords);
                out.accept("Wrote " + scramRecords.size() + " SCRAM credentials into " + dir.resolve(
                        BootstrapScram.FILE_NAME));
            }
            new MetaProperties(clusterId, config.nodeId(), directoryId).write(dir);
            out.accept("Formatted " + dir + " with cluster.id " + clusterId + ", node.id " + config.nodeId()
                    + " and directory.id " + TopicIds.toBase64(directoryId));
        }
        if (!config.isController() && !scramRecords.isEmpty()) {
            out.accept(ScramArguments.FLAG + " ignored: node " + config.nodeId() + " is not a controller, and only "
                    + "controllers bootstrap the metadata log");
        }
        initialVoters.filter(voters -> !voters.hasId(config.nodeId()) && config.isController())
                .ifPresent(voters -> out.accept("Node " + config.nodeId() + " is not among the initial controllers: "
                        + "it starts as an observer and learns the voter set from the log"));
    }

    private static void checkInitialVoters(ServerConfig config, VoterSet voters) {
        if (!config.isController()) {
            throw new IllegalArgumentException(InitialControllers.FLAG + " and --no-initial-controllers are for "
                    + "controllers; node " + config.nodeId() + " has process.roles without controller");
        }
        for (int id : voters.ids()) {
            if (!config.voters().containsKey(id)) {
                throw new IllegalArgumentException(InitialControllers.FLAG + " names controller " + id + ", which "
                        + ConfigKeys.QUORUM_VOTERS + " does not list (" + config.voters().keySet() + ")");
            }
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
            if (!other.clusterId().equals(meta.clusterId()) || other.nodeId() != meta.nodeId()) {
                throw new IllegalStateException(logDir.resolve(MetaProperties.FILE_NAME) + " (cluster.id "
                        + other.clusterId() + ", node.id " + other.nodeId() + ") does not match " + dir);
            }
        }
        return meta.clusterId();
    }
}

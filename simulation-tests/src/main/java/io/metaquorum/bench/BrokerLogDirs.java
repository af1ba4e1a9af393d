package io.metaquorum.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The {@code log.dirs} of the brokers of a cluster whose nodes keep their properties under
 * one data directory ({@code mq-quickstart}'s {@code node-N/server.properties}), so a
 * benchmark on the same machine can watch their partition directories appear.
 */
final class BrokerLogDirs {
    private final Map<Integer, List<Path>> byBroker;
    private final Map<Integer, Path> configs;

    private BrokerLogDirs(Map<Integer, List<Path>> byBroker, Map<Integer, Path> configs) {
        this.byBroker = byBroker;
        this.configs = configs;
    }

    static BrokerLogDirs under(Path dataDir) throws IOException {
        Map<Integer, List<Path>> byBroker = new TreeMap<>();
        Map<Integer, Path> configs = new TreeMap<>();
        try (var dirs = Files.list(dataDir)) {
            for (Path dir : dirs.sorted().toList()) {
                Path config = dir.resolve("server.properties");
                if (!Files.isRegularFile(config)) {
                    continue;
                }
                Properties props = FailoverBench.load(config);
                if (props.getProperty("process.roles", "").contains("broker")) {
                    List<Path> logDirs = new ArrayList<>();
                    Arrays.stream(props.getProperty("log.dirs", "").split(",")).map(String::trim)
                            .filter(s -> !s.isEmpty()).forEach(s -> logDirs.add(Path.of(s)));
                    int id = Integer.parseInt(props.getProperty("node.id").trim());
                    byBroker.put(id, logDirs);
                    configs.put(id, config);
                }
            }
        }
        if (byBroker.isEmpty()) {
            throw new IllegalArgumentException("no broker's server.properties under " + dataDir
                    + "; give the data directory of a cluster made by bin/mq-quickstart");
        }
        return new BrokerLogDirs(byBroker, configs);
    }

    /** Broker {@code id}'s server.properties. */
    Path config(int id) {
        return configs.get(id);
    }

    List<Path> logDirs(int id) {
        return byBroker.get(id);
    }

    List<Integer> brokerIds() {
        return new ArrayList<>(byBroker.keySet());
    }

    /**
     * Whether broker {@code id} has the directory {@code <topic>-<partition>} in one of its log
     * dirs with its metadata written: {@code partition.metadata}, or the
     * {@code partition.metadata.tmp} a broker publishes under that name once the kernel has
     * written it back (docs/brokers.md, "Creating directories in batches").
     */
    boolean has(int id, String topic, int partition) {
        for (Path logDir : byBroker.get(id)) {
            Path dir = logDir.resolve(topic + "-" + partition);
            if (Files.isRegularFile(dir.resolve("partition.metadata"))
                    || Files.isRegularFile(dir.resolve("partition.metadata.tmp"))) {
                return true;
            }
        }
        return false;
    }
}

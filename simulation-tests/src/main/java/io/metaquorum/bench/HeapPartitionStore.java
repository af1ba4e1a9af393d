package io.metaquorum.bench;

import io.metaquorum.broker.partition.PartitionStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@link PartitionStore} port over sorted maps on the heap, for {@code reconcile-pass}:
 * each log dir is a map from entry name to the bytes of its {@code partition.metadata}, so a
 * pass costs the reconciler's own work and nothing of a disk's. Syncs do nothing.
 */
final class HeapPartitionStore implements PartitionStore {
    private final Map<Path, TreeMap<String, byte[]>> logDirs = new TreeMap<>();

    HeapPartitionStore(List<Path> dirs) {
        for (Path dir : dirs) {
            logDirs.put(dir, new TreeMap<>());
        }
    }

    /** The entries under every log dir. */
    long entryCount() {
        long count = 0;
        for (TreeMap<String, byte[]> entries : logDirs.values()) {
            count += entries.size();
        }
        return count;
    }

    @Override
    public List<Entry> list(Path logDir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (String name : entries(logDir).keySet()) {
            entries.add(new Entry(name, true));
        }
        return entries;
    }

    @Override
    public byte[] readPartitionMetadata(Path logDir, String dir, int maxBytes) throws IOException {
        byte[] metadata = entries(logDir).get(dir);
        return metadata == null ? null : Arrays.copyOf(metadata, Math.min(metadata.length, maxBytes));
    }

    /** Never anything: a directory has its {@code partition.metadata} from the start. */
    @Override
    public byte[] readUnpublishedMetadata(Path logDir, String dir, int maxBytes) throws IOException {
        entries(logDir);
        return null;
    }

    /** The directory appears with its {@code partition.metadata} at once: the bench times the reconciler, not the steps. */
    @Override
    public void writePartition(Path logDir, NewPartition partition) throws IOException {
        if (entries(logDir).putIfAbsent(partition.dir(), partition.metadata()) != null) {
            throw new IOException(logDir.resolve(partition.dir()) + " exists");
        }
    }

    @Override
    public void syncPartitionFiles(Path logDir, List<NewPartition> partitions) {
    }

    @Override
    public void publishPartition(Path logDir, String dir) {
    }

    @Override
    public void rename(Path logDir, String from, String to) throws IOException {
        TreeMap<String, byte[]> entries = entries(logDir);
        if (entries.containsKey(to) || !entries.containsKey(from)) {
            throw new IOException("cannot rename " + logDir.resolve(from) + " to " + to);
        }
        entries.put(to, entries.remove(from));
    }

    @Override
    public void deleteRecursively(Path logDir, String dir) throws IOException {
        entries(logDir).remove(dir);
    }

    @Override
    public void sync(Path logDir) throws IOException {
        entries(logDir);
    }

    private TreeMap<String, byte[]> entries(Path logDir) throws IOException {
        TreeMap<String, byte[]> entries = logDirs.get(logDir);
        if (entries == null) {
            throw new IOException(logDir + " is not a log dir");
        }
        return entries;
    }
}

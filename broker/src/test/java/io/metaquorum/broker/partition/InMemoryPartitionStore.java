package io.metaquorum.broker.partition;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link PartitionStore} in memory, with the faults the reconciler must survive: log dirs
 * that refuse writes, and a number of operations that fail. Every entry directly under a log
 * dir is a file or a directory that holds a {@code partition.metadata} (or not) and possibly
 * other files, which is all the reconciler can see. A directory being created holds its
 * temporary {@code partition.metadata.tmp} (one other file) until it is published. Every
 * operation is recorded in order ({@link #operations}), so a test can check the order of a
 * batch's steps.
 */
final class InMemoryPartitionStore implements PartitionStore {
    /** One entry under a log dir; {@code metadata} null when a directory has no {@code partition.metadata}. */
    record Node(boolean directory, byte[] metadata, int otherFiles) {
    }

    private final TreeMap<Path, TreeMap<String, Node>> dirs = new TreeMap<>();
    private final TreeSet<Path> readOnly = new TreeSet<>();
    private final TreeSet<Path> full = new TreeSet<>();
    private int failNextOperations;
    private int mutations;
    private int syncs;
    /** The bytes of the temporary files of directories written and not yet published, by "logdir/name". */
    private final TreeMap<Path, byte[]> temporary = new TreeMap<>();
    private final TreeSet<Path> syncedTemporary = new TreeSet<>();
    private final List<String> operations = new ArrayList<>();

    InMemoryPartitionStore(List<Path> logDirs) {
        logDirs.forEach(dir -> dirs.put(dir, new TreeMap<>()));
    }

    private TreeMap<String, Node> dir(Path logDir) throws IOException {
        TreeMap<String, Node> entries = dirs.get(logDir);
        if (entries == null) {
            throw new IllegalStateException("not a log dir: " + logDir);
        }
        if (failNextOperations > 0) {
            failNextOperations--;
            throw new IOException("injected failure under " + logDir);
        }
        return entries;
    }

    private TreeMap<String, Node> writable(Path logDir) throws IOException {
        TreeMap<String, Node> entries = dir(logDir);
        if (readOnly.contains(logDir)) {
            throw new IOException(logDir + ": read-only file system");
        }
        if (full.contains(logDir)) {
            throw new IOException("No space left on device");
        }
        mutations++;
        return entries;
    }

    private static void checkName(String name) {
        if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
            throw new IllegalStateException("not one path segment: '" + name + "'");
        }
    }

    @Override
    public List<Entry> list(Path logDir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        dir(logDir).forEach((name, node) -> entries.add(new Entry(name, node.directory())));
        return entries;
    }

    @Override
    public byte[] readPartitionMetadata(Path logDir, String dir, int maxBytes) throws IOException {
        return atMost(directory(logDir, dir).metadata(), maxBytes);
    }

    @Override
    public byte[] readUnpublishedMetadata(Path logDir, String dir, int maxBytes) throws IOException {
        directory(logDir, dir);
        return atMost(temporary.get(logDir.resolve(dir)), maxBytes);
    }

    /** The directory {@code dir} of {@code logDir}; fails when there is none. */
    private Node directory(Path logDir, String dir) throws IOException {
        checkName(dir);
        Node node = dir(logDir).get(dir);
        if (node == null || !node.directory()) {
            throw new IOException("no directory " + logDir.resolve(dir));
        }
        return node;
    }

    private static byte[] atMost(byte[] bytes, int maxBytes) {
        return bytes == null ? null : Arrays.copyOf(bytes, Math.min(maxBytes, bytes.length));
    }

    @Override
    public void writePartition(Path logDir, NewPartition partition) throws IOException {
        checkName(partition.dir());
        operations.add("write " + logDir.resolve(partition.dir()));
        TreeMap<String, Node> entries;
        try {
            entries = writable(logDir);
        } catch (IOException e) {
            throw new IOException(logDir.resolve(partition.dir()) + ": " + e.getMessage(), e);
        }
        if (entries.containsKey(partition.dir())) {
            throw new IOException(logDir.resolve(partition.dir()) + " exists");
        }
        entries.put(partition.dir(), new Node(true, null, 1));
        temporary.put(logDir.resolve(partition.dir()), partition.metadata().clone());
    }

    @Override
    public void syncPartitionFiles(Path logDir, List<NewPartition> partitions) throws IOException {
        operations.add("sync-files " + logDir + " " + partitions.size());
        dir(logDir);
        for (NewPartition partition : partitions) {
            Path path = logDir.resolve(partition.dir());
            if (!temporary.containsKey(path)) {
                throw new IOException("no temporary file in " + path);
            }
            syncedTemporary.add(path);
        }
    }

    /** Fails unless the temporary file was synced first: a rename must never name unsynced bytes. */
    @Override
    public void publishPartition(Path logDir, String dir) throws IOException {
        checkName(dir);
        operations.add("publish " + logDir.resolve(dir));
        TreeMap<String, Node> entries = writable(logDir);
        Path path = logDir.resolve(dir);
        if (!syncedTemporary.remove(path)) {
            throw new IllegalStateException("renaming the unsynced temporary file of " + path);
        }
        entries.put(dir, new Node(true, temporary.remove(path), 0));
    }

    @Override
    public void rename(Path logDir, String from, String to) throws IOException {
        checkName(from);
        checkName(to);
        operations.add("rename " + logDir.resolve(from) + " " + to);
        TreeMap<String, Node> entries = writable(logDir);
        if (!entries.containsKey(from) || entries.containsKey(to)) {
            throw new IOException("cannot rename " + from + " to " + to + " in " + logDir);
        }
        entries.put(to, entries.remove(from));
        // An unpublished directory's temporary file moves with it.
        byte[] unpublished = temporary.remove(logDir.resolve(from));
        if (unpublished != null) {
            temporary.put(logDir.resolve(to), unpublished);
        }
        if (syncedTemporary.remove(logDir.resolve(from))) {
            syncedTemporary.add(logDir.resolve(to));
        }
    }

    @Override
    public void deleteRecursively(Path logDir, String dir) throws IOException {
        checkName(dir);
        operations.add("delete " + logDir.resolve(dir));
        TreeMap<String, Node> entries = writable(logDir);
        if (entries.remove(dir) == null) {
            throw new IOException("no " + logDir.resolve(dir));
        }
        temporary.remove(logDir.resolve(dir));
        syncedTemporary.remove(logDir.resolve(dir));
    }

    @Override
    public void sync(Path logDir) throws IOException {
        operations.add("sync " + logDir);
        dir(logDir);
        syncs++;
    }

    void put(Path logDir, String name, Node node) {
        dirs.get(logDir).put(name, node);
    }

    void setReadOnly(Path logDir, boolean value) {
        if (value) {
            readOnly.add(logDir);
        } else {
            readOnly.remove(logDir);
        }
    }

    /** Makes every write under {@code logDir} fail as a full disk does (ENOSPC), or stops it. */
    void setFull(Path logDir, boolean value) {
        if (value) {
            full.add(logDir);
        } else {
            full.remove(logDir);
        }
    }

    void failNextOperations(int count) {
        failNextOperations = count;
    }

    /** How many write operations (create, rename, delete) were attempted. */
    int mutations() {
        return mutations;
    }

    /** Every operation so far, in order: "write P", "sync-files L N", "publish P", "sync L" (no reads). */
    List<String> operations() {
        return List.copyOf(operations);
    }

    void clearOperations() {
        operations.clear();
    }

    /** How many log-dir syncs were made. */
    int syncs() {
        return syncs;
    }

    /** The entries of one log dir by name. */
    TreeMap<String, Node> entries(Path logDir) {
        return new TreeMap<>(dirs.get(logDir));
    }

    /** Every entry as "logdir/name" mapped to what it holds: "file", "dir" or the topic id text. */
    TreeMap<String, String> describe() {
        TreeMap<String, String> all = new TreeMap<>();
        for (Map.Entry<Path, TreeMap<String, Node>> dir : dirs.entrySet()) {
            dir.getValue().forEach((name, node) -> all.put(dir.getKey().getFileName() + "/" + name,
                    !node.directory() ? "file" : node.metadata() == null ? "dir"
                            : new String(node.metadata(), java.nio.charset.StandardCharsets.US_ASCII)));
        }
        return all;
    }
}

package io.metaquorum.sim.system.fs;

import io.metaquorum.common.fault.DiskFull;
import io.metaquorum.common.invariant.Invariants;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A file system in memory with the durability rules a crash exposes, for one simulated
 * machine. Directories and files are nodes; a name in a directory points at a node.
 *
 * <p>Fault model:
 * <ul>
 *   <li>A directory's entries (create, delete, rename of a name in it) are durable only once that
 *       directory is fsynced ({@link #fsyncDirectory}); a file's bytes only once that file is
 *       fsynced ({@link #fsyncFile}). The two are distinct: syncing a file does not make its
 *       name durable, and syncing its directory does not make its bytes durable (a file whose
 *       name survives but whose bytes never synced comes back empty).</li>
 *   <li>{@link #rename} is atomic: after a crash the entry has either name, never both or none.</li>
 *   <li>{@link #crash} throws away what was not durable ({@link CrashMode}); a crash point
 *       ({@link #crashAtOperation}) makes the n-th mutating operation from now crash the machine
 *       instead of happening, and {@link #failAtOperation} and {@link #failNextOperations} make
 *       operations fail with an {@link IOException} (a disk write error) without changing
 *       anything.</li>
 * </ul>
 * While crashed, every operation throws {@link SimulatedCrash} until {@link #restart}.
 *
 * <p>Paths are absolute; only what {@link #mkdirs} made durable exists before the first write.
 * Deterministic: the random source is the caller's.
 */
public final class SimFileSystem {
    private final Random random;
    private final CrashMode crashMode;
    private final Directory root = new Directory();
    private long mutations;
    private long crashAtMutation = -1;
    /** Directories whose disk is full: creations under them fail with ENOSPC. */
    private final TreeSet<Path> full = new TreeSet<>();
    private long failAtMutation = -1;
    private int failuresLeft;
    private boolean crashed;
    private long crashes;

    /** A node: a directory or a file. */
    private abstract static class Node {
    }

    private static final class File extends Node {
        private byte[] content = new byte[0];
        private byte[] durableContent = new byte[0];
    }

    /** One change to a directory's entries not yet made durable. */
    private record EntryChange(String name, Node node, String renamedTo) {
    }

    private static final class Directory extends Node {
        private final TreeMap<String, Node> entries = new TreeMap<>();
        private TreeMap<String, Node> durableEntries = new TreeMap<>();
        /** Changes since the last fsync, in order. Invariant: replaying them on durableEntries gives entries. */
        private final List<EntryChange> unsynced = new ArrayList<>();
    }

    public SimFileSystem(Random random, CrashMode crashMode) {
        this.random = random;
        this.crashMode = crashMode;
    }

    // ---- set-up and faults ----

    /** Creates {@code dir} and its parents, durably at once (a formatted log dir). */
    public void mkdirs(Path dir) {
        Directory current = root;
        for (String name : segments(dir)) {
            Node child = current.entries.get(name);
            if (child == null) {
                child = new Directory();
                current.entries.put(name, child);
                current.durableEntries.put(name, child);
            }
            Invariants.check(child instanceof Directory, "%s: %s is a file", dir, name);
            current = (Directory) child;
        }
    }

    /** The {@code n}-th mutating operation from now (1 = the next) crashes the machine instead of happening. */
    public void crashAtOperation(long n) {
        Invariants.check(n >= 1, "a crash point is 1 or later, got %d", n);
        crashAtMutation = mutations + n;
    }

    /** The {@code n}-th mutating operation from now (1 = the next) fails with an IOException and changes nothing. */
    public void failAtOperation(long n) {
        Invariants.check(n >= 1, "a failure point is 1 or later, got %d", n);
        failAtMutation = mutations + n;
    }

    /** The next {@code count} mutating operations fail with an IOException and change nothing. */
    public void failNextOperations(int count) {
        failuresLeft = count;
    }

    /** Disarms every crash point and failure not yet reached, and frees every full directory. */
    public void clearFaults() {
        crashAtMutation = -1;
        failAtMutation = -1;
        failuresLeft = 0;
        full.clear();
    }

    /**
     * Fills the disk under {@code dir} ({@code true}) or frees it: while full, creating a file
     * or a directory under it fails with ENOSPC's message and changes nothing, as on a full
     * file system; renames, deletions and syncs still work.
     */
    public void setFull(Path dir, boolean value) {
        if (value) {
            full.add(dir);
        } else {
            full.remove(dir);
        }
    }

    public boolean isFull(Path dir) {
        return full.contains(dir);
    }

    private void requireSpace(Path path) throws IOException {
        for (Path dir : full) {
            if (path.startsWith(dir)) {
                throw new IOException(DiskFull.ENOSPC_TEXT);
            }
        }
    }

    /** Power loss now: what was not durable is lost (per the crash mode). */
    public void crash() {
        crashed = true;
        crashes++;
        crashAtMutation = -1;
        recover(root);
    }

    /** The machine is back: operations work again. */
    public void restart() {
        crashed = false;
    }

    public boolean isCrashed() {
        return crashed;
    }

    public long crashes() {
        return crashes;
    }

    /** Mutating operations performed (or attempted) so far: the clock crash points count on. */
    public long mutations() {
        return mutations;
    }

    private void recover(Directory dir) {
        TreeMap<String, Node> survived = new TreeMap<>(dir.durableEntries);
        int kept = crashMode == CrashMode.KEEP_RANDOM_PREFIX ? random.nextInt(dir.unsynced.size() + 1) : 0;
        for (int i = 0; i < kept; i++) {
            replay(survived, dir.unsynced.get(i));
        }
        dir.entries.clear();
        dir.entries.putAll(survived);
        dir.durableEntries = new TreeMap<>(survived);
        dir.unsynced.clear();
        for (Node child : survived.values()) {
            if (child instanceof Directory sub) {
                recover(sub);
            } else {
                File file = (File) child;
                if (crashMode == CrashMode.KEEP_RANDOM_PREFIX && !Arrays.equals(file.content, file.durableContent)
                        && random.nextBoolean()) {
                    file.durableContent = Arrays.copyOf(file.content, random.nextInt(file.content.length + 1));
                }
                file.content = file.durableContent.clone();
            }
        }
    }

    private static void replay(Map<String, Node> entries, EntryChange change) {
        if (change.renamedTo() != null) {
            entries.put(change.renamedTo(), entries.remove(change.name()));
        } else if (change.node() == null) {
            entries.remove(change.name());
        } else {
            entries.put(change.name(), change.node());
        }
    }

    /** Counts a mutating operation; crashes or fails it when a fault is due. */
    private void beginMutation(String what) throws IOException {
        requireRunning();
        mutations++;
        if (mutations == crashAtMutation) {
            crash();
            throw new SimulatedCrash("crashed at file-system operation " + mutations + " (" + what + ")");
        }
        if (mutations == failAtMutation || failuresLeft > 0) {
            failuresLeft = Math.max(0, failuresLeft - 1);
            throw new IOException("simulated disk error: " + what);
        }
    }

    private void requireRunning() {
        if (crashed) {
            throw new SimulatedCrash("the machine is down");
        }
    }

    // ---- operations ----

    /** The entries of {@code dir} with whether each is a directory, in name order. */
    public List<Map.Entry<String, Boolean>> list(Path dir) throws IOException {
        requireRunning();
        List<Map.Entry<String, Boolean>> entries = new ArrayList<>();
        for (Map.Entry<String, Node> entry : directory(dir).entries.entrySet()) {
            entries.add(Map.entry(entry.getKey(), entry.getValue() instanceof Directory));
        }
        return entries;
    }

    /** The bytes of {@code file}, or null when it (or its directory) does not exist or is a directory. */
    public byte[] read(Path file) {
        requireRunning();
        Node node = lookup(file);
        return node instanceof File f ? f.content.clone() : null;
    }

    public boolean exists(Path path) {
        requireRunning();
        return lookup(path) != null;
    }

    public boolean isDirectory(Path path) {
        requireRunning();
        return lookup(path) instanceof Directory;
    }

    public void mkdir(Path dir) throws IOException {
        beginMutation("mkdir " + dir);
        requireSpace(dir);
        Directory parent = directory(dir.getParent());
        String name = dir.getFileName().toString();
        requireAbsent(parent, name, dir);
        link(parent, name, new Directory());
    }

    /** Creates {@code file} holding {@code content}; fails if the name exists. Not durable until synced. */
    public void createFile(Path file, byte[] content) throws IOException {
        beginMutation("create " + file);
        requireSpace(file);
        Directory parent = directory(file.getParent());
        String name = file.getFileName().toString();
        requireAbsent(parent, name, file);
        File created = new File();
        created.content = content.clone();
        link(parent, name, created);
    }

    public void fsyncFile(Path file) throws IOException {
        beginMutation("fsync " + file);
        if (!(lookup(file) instanceof File f)) {
            throw new IOException("no such file: " + file);
        }
        f.durableContent = f.content.clone();
    }

    public void fsyncDirectory(Path dir) throws IOException {
        beginMutation("fsync " + dir);
        Directory directory = directory(dir);
        directory.durableEntries = new TreeMap<>(directory.entries);
        directory.unsynced.clear();
    }

    /** Renames {@code dir/from} to {@code dir/to} atomically; fails if {@code to} exists or {@code from} does not. */
    public void rename(Path dir, String from, String to) throws IOException {
        beginMutation("rename " + dir.resolve(from) + " to " + to);
        Directory directory = directory(dir);
        if (!directory.entries.containsKey(from)) {
            throw new IOException("no such file or directory: " + dir.resolve(from));
        }
        requireAbsent(directory, to, dir.resolve(to));
        EntryChange change = new EntryChange(from, null, to);
        replay(directory.entries, change);
        directory.unsynced.add(change);
    }

    /** Deletes a file or an empty directory. */
    public void delete(Path path) throws IOException {
        beginMutation("delete " + path);
        Directory parent = directory(path.getParent());
        String name = path.getFileName().toString();
        Node node = parent.entries.get(name);
        if (node == null) {
            throw new IOException("no such file or directory: " + path);
        }
        if (node instanceof Directory d && !d.entries.isEmpty()) {
            throw new IOException("directory not empty: " + path);
        }
        EntryChange change = new EntryChange(name, null, null);
        replay(parent.entries, change);
        parent.unsynced.add(change);
    }

    private static void link(Directory parent, String name, Node node) {
        EntryChange change = new EntryChange(name, node, null);
        replay(parent.entries, change);
        parent.unsynced.add(change);
    }

    private static void requireAbsent(Directory parent, String name, Path path) throws IOException {
        if (parent.entries.containsKey(name)) {
            throw new IOException("already exists: " + path);
        }
    }

    private Directory directory(Path dir) throws IOException {
        if (!(lookup(dir) instanceof Directory d)) {
            throw new IOException("no such directory: " + dir);
        }
        return d;
    }

    private Node lookup(Path path) {
        Node current = root;
        for (String name : segments(path)) {
            if (!(current instanceof Directory d)) {
                return null;
            }
            current = d.entries.get(name);
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    /**
     * The names along an absolute, normal path, split from its text: a reconcile pass looks up
     * thousands of paths, and iterating a {@code Path} makes a path object per name.
     */
    private static List<String> segments(Path path) {
        String text = path == null ? "" : path.toString();
        Invariants.check(text.startsWith("/"), "a simulated path is absolute, got %s", path);
        List<String> names = new ArrayList<>();
        int from = 1;
        while (from < text.length()) {
            int slash = text.indexOf('/', from);
            int end = slash < 0 ? text.length() : slash;
            String name = text.substring(from, end);
            Invariants.check(!name.isEmpty() && !name.equals(".") && !name.equals(".."),
                    "a simulated path is normal, got %s", path);
            names.add(name);
            from = end + 1;
        }
        return names;
    }
}

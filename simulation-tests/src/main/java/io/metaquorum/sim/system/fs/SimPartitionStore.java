package io.metaquorum.sim.system.fs;

import io.metaquorum.broker.partition.PartitionMetadataFile;
import io.metaquorum.broker.partition.PartitionStore;
import io.metaquorum.common.invariant.Invariants;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The {@link PartitionStore} port on a {@link SimFileSystem}, taking the same steps as the NIO
 * store so that a crash between any two of them leaves what a real crash would:
 * {@code partition.metadata} goes through a temporary file, an fsync, an atomic rename and an
 * fsync of the partition directory; the log dir's entries are made durable by {@link #sync}.
 * Partitions of one batch are written one after another (the NIO store overlaps their fsyncs
 * on threads; the durable result of each is the same).
 *
 * <p>Names are checked to be one path segment, as the port requires.
 */
public final class SimPartitionStore implements PartitionStore {
    /** The temporary file {@code partition.metadata} is written to first (as NioPartitionStore names it). */
    public static final String TEMP_FILE = PartitionMetadataFile.FILE_NAME + ".tmp";

    private final SimFileSystem fs;
    private final MetadataWriteOrder order;

    public SimPartitionStore(SimFileSystem fs, MetadataWriteOrder order) {
        this.fs = fs;
        this.order = order;
    }

    public SimFileSystem fileSystem() {
        return fs;
    }

    @Override
    public List<Entry> list(Path logDir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (Map.Entry<String, Boolean> entry : fs.list(logDir)) {
            entries.add(new Entry(entry.getKey(), entry.getValue()));
        }
        return entries;
    }

    @Override
    public byte[] readPartitionMetadata(Path logDir, String dir, int maxBytes) {
        byte[] content = fs.read(entry(logDir, dir).resolve(PartitionMetadataFile.FILE_NAME));
        return content == null ? null : Arrays.copyOf(content, Math.min(maxBytes, content.length));
    }

    @Override
    public void createPartitions(Path logDir, List<NewPartition> partitions) throws IOException {
        for (NewPartition partition : partitions) {
            Path dir = entry(logDir, partition.dir());
            fs.mkdir(dir);
            try {
                writeMetadata(dir, partition.metadata());
            } catch (IOException e) {
                // As the NIO store: leave no half-made directory behind if the disk lets us.
                try {
                    deleteTree(dir);
                } catch (IOException cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw e;
            }
        }
    }

    private void writeMetadata(Path dir, byte[] metadata) throws IOException {
        Path temp = dir.resolve(TEMP_FILE);
        fs.createFile(temp, metadata);
        if (order == MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC) {
            fs.fsyncFile(temp);
        }
        fs.rename(dir, TEMP_FILE, PartitionMetadataFile.FILE_NAME);
        fs.fsyncDirectory(dir);
    }

    @Override
    public void rename(Path logDir, String from, String to) throws IOException {
        entry(logDir, from);
        entry(logDir, to);
        fs.rename(logDir, from, to);
    }

    @Override
    public void deleteRecursively(Path logDir, String dir) throws IOException {
        deleteTree(entry(logDir, dir));
    }

    @Override
    public void sync(Path logDir) throws IOException {
        fs.fsyncDirectory(logDir);
    }

    private void deleteTree(Path path) throws IOException {
        if (!fs.exists(path)) {
            return;
        }
        if (fs.isDirectory(path)) {
            for (Map.Entry<String, Boolean> child : fs.list(path)) {
                deleteTree(path.resolve(child.getKey()));
            }
        }
        fs.delete(path);
    }

    private static Path entry(Path logDir, String name) {
        Invariants.check(!name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0
                && name.indexOf('\0') < 0, "not a single path segment: '%s'", name);
        return logDir.resolve(name);
    }
}

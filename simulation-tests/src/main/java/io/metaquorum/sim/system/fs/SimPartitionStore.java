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
 * store so that a crash between any two of them leaves what a real crash would: a new
 * directory and its temporary {@code partition.metadata.tmp}, the file's fsync, the atomic
 * rename to {@code partition.metadata}; the log dir's entries are made durable by
 * {@link #sync}. The order of the steps over a batch is the reconciler's ({@code DirectoryBatch}),
 * not this class's. The temporary files of one batch are synced one after another (the NIO
 * store overlaps their fsyncs on threads; the durable result of each is the same).
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
    public byte[] readUnpublishedMetadata(Path logDir, String dir, int maxBytes) {
        byte[] content = fs.read(entry(logDir, dir).resolve(TEMP_FILE));
        return content == null ? null : Arrays.copyOf(content, Math.min(maxBytes, content.length));
    }

    @Override
    public void writePartition(Path logDir, NewPartition partition) throws IOException {
        Path dir = entry(logDir, partition.dir());
        fs.mkdir(dir);
        try {
            fs.createFile(dir.resolve(TEMP_FILE), partition.metadata());
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

    @Override
    public void syncPartitionFiles(Path logDir, List<NewPartition> partitions) throws IOException {
        if (order == MetadataWriteOrder.BROKEN_RENAME_BEFORE_SYNC) {
            return;
        }
        for (NewPartition partition : partitions) {
            fs.fsyncFile(entry(logDir, partition.dir()).resolve(TEMP_FILE));
        }
    }

    @Override
    public void publishPartition(Path logDir, String dir) throws IOException {
        fs.rename(entry(logDir, dir), TEMP_FILE, PartitionMetadataFile.FILE_NAME);
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

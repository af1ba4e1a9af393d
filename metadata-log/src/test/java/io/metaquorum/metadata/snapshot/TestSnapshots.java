package io.metaquorum.metadata.snapshot;

import io.metaquorum.raft.storage.InMemorySnapshotWriter;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.Arrays;

/** Snapshots in memory for tests: written through the production path, read in small chunks. */
public final class TestSnapshots {
    private TestSnapshots() {
    }

    /** The content {@link SnapshotTask#writeTo} produces for {@code task}. */
    public static byte[] write(SnapshotTask task, SnapshotLimits limits) {
        InMemorySnapshotWriter writer = new InMemorySnapshotWriter(task.id());
        task.writeTo(writer, limits);
        return writer.frozenContent();
    }

    /** {@code content} as snapshot {@code id}, handing out at most {@code chunkBytesMax} bytes per read. */
    public static SnapshotReader reader(OffsetAndEpoch id, byte[] content, int chunkBytesMax) {
        return new SnapshotReader() {
            @Override
            public OffsetAndEpoch id() {
                return id;
            }

            @Override
            public long sizeBytes() {
                return content.length;
            }

            @Override
            public byte[] read(long position, int maxBytes) {
                if (position < 0 || position > content.length) {
                    throw new IllegalArgumentException("position " + position + " outside " + content.length);
                }
                int from = (int) position;
                return Arrays.copyOfRange(content, from, from + Math.min(Math.min(maxBytes, chunkBytesMax),
                        content.length - from));
            }
        };
    }
}

package io.metaquorum.raft.storage;

/**
 * A stored snapshot's content read in chunks, so that nothing holds a whole snapshot in
 * one array: the state machine decodes it batch by batch while loading, the leader serves
 * FetchSnapshot chunks from the requested position. Used on one thread (the driver).
 */
public interface SnapshotReader {
    OffsetAndEpoch id();

    /** The content's length in bytes. */
    long sizeBytes();

    /**
     * Up to {@code maxBytes} of the content from {@code position} (fewer only at the end);
     * {@code position} must lie in {@code [0, sizeBytes()]}.
     */
    byte[] read(long position, int maxBytes);

    /** Reads the snapshot {@code id} that {@code log} stores, through {@link RaftLog#readSnapshot}. */
    static SnapshotReader of(RaftLog log, OffsetAndEpoch id) {
        long size = log.snapshotSize(id);
        return new SnapshotReader() {
            @Override
            public OffsetAndEpoch id() {
                return id;
            }

            @Override
            public long sizeBytes() {
                return size;
            }

            @Override
            public byte[] read(long position, int maxBytes) {
                return log.readSnapshot(id, position, maxBytes);
            }
        };
    }
}

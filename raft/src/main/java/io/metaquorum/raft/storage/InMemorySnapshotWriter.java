package io.metaquorum.raft.storage;

import java.io.ByteArrayOutputStream;

/**
 * The {@link SnapshotWriter} of {@link InMemoryRaftLog}: collects the chunks in memory. The
 * raft tests and the simulator use it; a node's snapshots go to files instead.
 */
public final class InMemorySnapshotWriter implements SnapshotWriter {
    private final OffsetAndEpoch id;
    private ByteArrayOutputStream content = new ByteArrayOutputStream();
    private boolean frozen;

    public InMemorySnapshotWriter(OffsetAndEpoch id) {
        if (id.offset() < 0 || id.epoch() < 0) {
            throw new IllegalArgumentException("snapshot id must not be negative: " + id);
        }
        this.id = id;
    }

    @Override
    public OffsetAndEpoch id() {
        return id;
    }

    @Override
    public void append(byte[] chunk) {
        requireOpen();
        content.writeBytes(chunk);
    }

    @Override
    public long sizeBytes() {
        requireNotClosed();
        return content.size();
    }

    @Override
    public void freeze() {
        requireOpen();
        frozen = true;
    }

    @Override
    public boolean isFrozen() {
        return frozen;
    }

    /** A copy of the content written; requires a frozen writer. */
    public byte[] frozenContent() {
        if (!frozen || content == null) {
            throw new IllegalStateException("snapshot " + id + " is not frozen");
        }
        return content.toByteArray();
    }

    @Override
    public void close() {
        content = null;
    }

    private void requireOpen() {
        requireNotClosed();
        if (frozen) {
            throw new IllegalStateException("snapshot " + id + " is frozen: nothing more can be appended");
        }
    }

    private void requireNotClosed() {
        if (content == null) {
            throw new IllegalStateException("snapshot writer " + id + " is closed");
        }
    }
}

package io.metaquorum.raft.storage;

/** A stored batch failed its CRC or could not be decoded. Corrupt data is never served. */
public final class CorruptLogException extends StorageException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    public CorruptLogException(long offset, String detail) {
        super("corrupt metadata log batch at offset " + offset + ": " + detail);
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }
}

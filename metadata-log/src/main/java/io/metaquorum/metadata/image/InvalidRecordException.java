package io.metaquorum.metadata.image;

/**
 * A committed record that cannot apply to the image it follows: a partition of an unknown
 * topic, a second topic with an id already in use, a broker epoch that goes back. The log
 * was written by a broken controller; the node must stop rather than build state on it
 * (docs/engineering-rules.md rule 7), so this is thrown, never caught on the replay path.
 */
public final class InvalidRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    public InvalidRecordException(long offset, String recordType, String detail) {
        super("invalid " + recordType + " at offset " + offset + ": " + detail);
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }
}

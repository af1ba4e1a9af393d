package io.metaquorum.metadata.tool;

/** What {@code mq-metadata verify} found wrong first, and the offset it is at (-1 when none applies). */
public final class VerifyFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    public VerifyFailure(long offset, String detail) {
        super(offset >= 0 ? "first bad offset " + offset + ": " + detail : detail);
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }
}

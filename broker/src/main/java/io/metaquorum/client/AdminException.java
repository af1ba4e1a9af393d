package io.metaquorum.client;

import io.metaquorum.protocol.ErrorCode;

/**
 * A whole admin call failed: the request-level error a node answered (for example
 * INVALID_REQUEST), a transport failure that retrying cannot mend, or the call's deadline
 * passing before any answer. Failures of single topics in a batch are not exceptions; they
 * are the per-topic results.
 */
public final class AdminException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorCode code;

    public AdminException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    /** The code to name first when reporting the failure ({@code Error: CODE: message}). */
    public ErrorCode code() {
        return code;
    }
}

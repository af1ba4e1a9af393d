package io.metaquorum.client.transport;

import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;

/**
 * An attempt that got no answer from the node: the transport's failure, already given a
 * handling class by the transport adapter (for gRPC: UNAVAILABLE and a per-attempt
 * DEADLINE_EXCEEDED are REFRESH_AND_RETRY) and the code to report if the call gives up on it.
 */
public final class TransportFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorClass handling;
    private final transient ErrorCode code;

    public TransportFailure(ErrorClass handling, ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.handling = handling;
        this.code = code;
    }

    public ErrorClass handling() {
        return handling;
    }

    public ErrorCode code() {
        return code;
    }
}

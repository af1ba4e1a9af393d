package io.metaquorum.raft.transport.grpc;

/**
 * How the gRPC transport keeps its connections and what it accepts (docs/engineering-rules.md rule 8:
 * every limit named, unit and {@code Max} last).
 *
 * @param reconnectBackoffInitialMs wait before the first forced reconnect to a peer whose
 *                                  connection failed; doubles on each further failure
 * @param reconnectBackoffMsMax     ceiling of that wait: a restarted peer is reached again
 *                                  within about this long of a request being sent to it
 * @param keepAliveTimeMs           HTTP/2 ping interval on every connection, busy or idle, so
 *                                  a peer that vanished without closing its socket is noticed
 *                                  (gRPC raises anything below 10 s to 10 s)
 * @param keepAliveTimeoutMs        a ping unanswered this long closes the connection
 * @param messageBytesMax           the largest inbound message; larger ones are refused with
 *                                  RESOURCE_EXHAUSTED by gRPC before they reach any code here
 * @param pendingCallsMax           inbound requests handed to the driver and not yet answered;
 *                                  beyond it a request is refused with RESOURCE_EXHAUSTED
 * @param security                  plaintext or TLS, for the server and for every channel
 */
public record GrpcConnectionSettings(int reconnectBackoffInitialMs, int reconnectBackoffMsMax, int keepAliveTimeMs,
                                     int keepAliveTimeoutMs, int messageBytesMax, int pendingCallsMax,
                                     TransportSecurity security) {
    public static final GrpcConnectionSettings DEFAULTS =
            new GrpcConnectionSettings(50, 1000, 10_000, 5_000, 8 << 20, 4096, TransportSecurity.PLAINTEXT);

    /** These settings with other credentials. */
    public GrpcConnectionSettings withSecurity(TransportSecurity newSecurity) {
        return new GrpcConnectionSettings(reconnectBackoffInitialMs, reconnectBackoffMsMax, keepAliveTimeMs,
                keepAliveTimeoutMs, messageBytesMax, pendingCallsMax, newSecurity);
    }

    /** Throws {@link IllegalArgumentException} naming the first bad value. */
    public GrpcConnectionSettings validate() {
        requirePositive("reconnectBackoffInitialMs", reconnectBackoffInitialMs);
        requirePositive("keepAliveTimeMs", keepAliveTimeMs);
        requirePositive("keepAliveTimeoutMs", keepAliveTimeoutMs);
        requirePositive("messageBytesMax", messageBytesMax);
        requirePositive("pendingCallsMax", pendingCallsMax);
        if (reconnectBackoffMsMax < reconnectBackoffInitialMs) {
            throw new IllegalArgumentException("reconnectBackoffMsMax (" + reconnectBackoffMsMax
                    + ") must be >= reconnectBackoffInitialMs (" + reconnectBackoffInitialMs + ")");
        }
        return this;
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
    }
}

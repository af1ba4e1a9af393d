package io.metaquorum.raft.transport.grpc.logging;

/**
 * Why a connection was closed before it became a gRPC connection, as an operator would put
 * it. Each is one kind for the rate limit: the log says "and N more like it" per reason,
 * whatever the peers.
 */
public enum RefusalReason {
    PLAINTEXT_ON_TLS_PORT("plaintext client on a TLS port"),
    TLS_ON_PLAINTEXT_PORT("TLS client on a plaintext port"),
    NOT_HTTP2("not HTTP/2 (garbage or an HTTP/1 client)"),
    HTTP2_HANDSHAKE_INCOMPLETE("sent the HTTP/2 preface but did not complete the gRPC handshake"),
    NO_CLIENT_CERTIFICATE("TLS handshake failed: no client certificate"),
    UNKNOWN_CA("TLS handshake failed: certificate signed by an unknown CA"),
    CERTIFICATE_EXPIRED("TLS handshake failed: certificate expired"),
    CERTIFICATE_NOT_YET_VALID("TLS handshake failed: certificate not yet valid"),
    CERTIFICATE_INVALID("TLS handshake failed: client certificate rejected"),
    SERVER_CERTIFICATE_REFUSED("TLS handshake failed: the client does not trust this node's certificate"),
    CLOSED_DURING_TLS_HANDSHAKE("connection closed during the TLS handshake"),
    NO_HTTP2_OVER_TLS("TLS client did not negotiate HTTP/2 (ALPN h2)"),
    NO_GRPC_AFTER_TLS("TLS handshake completed, but no gRPC (HTTP/2) handshake followed"),
    TLS_HANDSHAKE_FAILED("TLS handshake failed");

    private final String text;

    RefusalReason(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }
}

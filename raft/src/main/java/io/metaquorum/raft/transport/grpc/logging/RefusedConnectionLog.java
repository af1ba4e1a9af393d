package io.metaquorum.raft.transport.grpc.logging;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.slf4j.Logger;

/**
 * The WARN line for a refused connection: the peer and the reason, at most one line per
 * reason per {@link LineRateLimiter#INTERVAL_MS}, the next one saying how many were left
 * out. Thread-safe: every connection's event loop calls it.
 *
 * <p>It stays on while the server closes: a connection cut then in the middle of its
 * handshake is reported like any other, which is rare and true, and it lets a test close the
 * server and then read a complete log.
 */
public final class RefusedConnectionLog {
    private final Logger log;
    private final String logPrefix;
    private final LineRateLimiter limiter;

    public RefusedConnectionLog(Logger log, String logPrefix, LineRateLimiter limiter) {
        this.log = log;
        this.logPrefix = logPrefix;
        this.limiter = limiter;
    }

    void onRefused(SocketAddress peer, Refusal refusal) {
        limiter.maybeAdmit(refusal.reason()).ifPresent(admitted -> log.warn("{}refused a connection from {}: {}{}",
                logPrefix, hostAndPort(peer), refusal.text(), admitted.suffix()));
    }

    /** {@code 10.0.0.7:51946}, {@code [0:0:0:0:0:0:0:1]:51946}: an IPv6 host in brackets, so the port stands apart. */
    static String hostAndPort(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() instanceof Inet6Address v6) {
            return "[" + v6.getHostAddress() + "]:" + inet.getPort();
        }
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}

package io.metaquorum.raft.transport.grpc;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The connection to one peer, with this transport's own reconnect backoff.
 *
 * <p>Why our own: gRPC's built-in reconnect backoff (1 s growing to 120 s) is not
 * configurable through public API, and 120 s would keep a restarted leader unreachable far
 * longer than an election takes. Instead, before each call to a peer whose connection is
 * in TRANSIENT_FAILURE, the channel's backoff is reset (an immediate reconnect attempt) at
 * most once per backoff period, which starts at {@code reconnectBackoffInitialMs}, doubles
 * on each failure up to {@code reconnectBackoffMsMax} and returns to the start once the
 * connection is READY. Calls made while the connection is down fail at once with
 * UNAVAILABLE (no wait-for-ready), which is the signal the core wants.
 *
 * <p>Channel settings: the node's credentials (plaintext or TLS); keepalive pings also on idle connections, so a peer that
 * vanished without closing its socket is noticed; retries off (the core decides what to
 * resend); no idle mode (a quorum connection is never idle for long, and an idle channel
 * would delay the next request by a reconnect); callbacks on the Netty thread, since the
 * sink they call never blocks.
 *
 * <p>Threading: {@link #beforeCall} is synchronized (callers are the driver thread and,
 * rarely, tests); the channel itself is thread-safe.
 */
final class PeerChannel {
    private final ManagedChannel channel;
    private final long backoffInitialNanos;
    private final long backoffMaxNanos;
    /** Invariant: {@code backoffInitialNanos <= backoffNanos <= backoffMaxNanos}. */
    private long backoffNanos;
    private long nextResetNanos;

    PeerChannel(InetSocketAddress address, GrpcConnectionSettings settings, long nowNanos) {
        this.channel = NettyChannelBuilder.forAddress(address, settings.security().channel())
                .keepAliveTime(settings.keepAliveTimeMs(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(settings.keepAliveTimeoutMs(), TimeUnit.MILLISECONDS)
                .keepAliveWithoutCalls(true)
                .disableRetry()
                // gRPC disables idle mode for any timeout of 30 days or more.
                .idleTimeout(30, TimeUnit.DAYS)
                .maxInboundMessageSize(settings.messageBytesMax())
                // A whole fetch response in flight without waiting for a window update.
                .flowControlWindow(settings.messageBytesMax())
                .directExecutor()
                .build();
        this.backoffInitialNanos = TimeUnit.MILLISECONDS.toNanos(settings.reconnectBackoffInitialMs());
        this.backoffMaxNanos = TimeUnit.MILLISECONDS.toNanos(settings.reconnectBackoffMsMax());
        this.backoffNanos = backoffInitialNanos;
        this.nextResetNanos = nowNanos;
    }

    /** The channel to make the next call on, after a reconnect attempt if one is due. */
    synchronized ManagedChannel beforeCall(long nowNanos) {
        keepConnected(nowNanos);
        return channel;
    }

    /**
     * Connects an idle channel and retries a failed one when its backoff is due, so the
     * connection is up before the first call that needs it: a Vote or EndQuorumEpoch to a
     * peer this node never called (or that restarted since) used to wait for a TCP and HTTP/2
     * handshake in the middle of an election.
     */
    synchronized void keepConnected(long nowNanos) {
        ConnectivityState state = channel.getState(false);
        if (state == ConnectivityState.READY) {
            backoffNanos = backoffInitialNanos;
        } else if (state == ConnectivityState.IDLE) {
            channel.getState(true);
        } else if (state == ConnectivityState.TRANSIENT_FAILURE && nowNanos - nextResetNanos >= 0) {
            channel.resetConnectBackoff();
            nextResetNanos = nowNanos + backoffNanos;
            backoffNanos = Math.min(backoffNanos * 2, backoffMaxNanos);
        }
    }

    /**
     * The peer just called us, so its process is up: if our channel to it is waiting out a
     * reconnect backoff (it was down a moment ago), reconnect now rather than let the next
     * request to it (an EndQuorumEpoch, a vote) fail while it is reachable.
     */
    synchronized void onPeerHeardFrom(long nowNanos) {
        if (channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
            channel.resetConnectBackoff();
            backoffNanos = backoffInitialNanos;
            nextResetNanos = nowNanos + backoffNanos;
        }
    }

    /** Fails every call in flight (UNAVAILABLE) and closes the connection. */
    void shutdownNow() {
        channel.shutdownNow();
    }

    /** Waits up to {@code timeoutMs} for the channel's resources to be released. */
    boolean awaitTermination(long timeoutMs) throws InterruptedException {
        return channel.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS);
    }
}

package io.metaquorum.server.kafka;

import io.metaquorum.security.grpc.RefusalLog;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Closes a Kafka-protocol connection that sent what the listener cannot serve (a frame size
 * out of range, bytes that are no request, a certificate no rule maps), with one WARN line
 * naming the peer, the listener and the reason, rate-limited by the node's {@link RefusalLog}
 * so a client that retries in a loop cannot fill the log. The other connections go on.
 */
final class ConnectionRefusals {
    private final String listenerName;
    private final RefusalLog log;

    ConnectionRefusals(String listenerName, RefusalLog log) {
        this.listenerName = listenerName;
        this.log = log;
    }

    /** Logs (rate-limited) and closes {@code channel} once what was written to it so far has gone out. */
    void close(Channel channel, String kind, String reason) {
        log.refused(peer(channel.remoteAddress()), "Kafka listener " + listenerName + ": " + kind,
                reason + "; connection closed");
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written -> channel.close());
    }

    /**
     * Logs (rate-limited) and closes {@code channel} {@code delayMs} after what was written to
     * it so far has gone out: a failed authentication's answer reaches the client first, and the
     * delay slows a client that guesses passwords in a loop. Nothing sleeps; the channel's event
     * loop runs the close.
     */
    void closeAfter(Channel channel, long delayMs, String kind, String reason) {
        log.refused(peer(channel.remoteAddress()), "Kafka listener " + listenerName + ": " + kind,
                reason + "; connection closed after " + delayMs + " ms");
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written ->
                channel.eventLoop().schedule(() -> channel.close(), delayMs, TimeUnit.MILLISECONDS));
    }

    /** The client's IP address, as ACLs name a host. */
    static String host(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return address == null ? "*" : address.toString();
    }

    private static String peer(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}

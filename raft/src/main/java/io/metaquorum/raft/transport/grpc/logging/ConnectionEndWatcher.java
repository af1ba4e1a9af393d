package io.metaquorum.raft.transport.grpc.logging;

import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First handler of an accepted connection's pipeline: when the connection closes without
 * gRPC having called it ready, it names the peer and the reason in the
 * {@link RefusedConnectionLog}. It handles only {@code channelInactive}, so Netty skips it for
 * every read and write (handlers are skipped for the events they do not override): a
 * healthy connection pays nothing per message.
 *
 * <p>It passes {@code channelInactive} on before it looks: the TLS handler fails a handshake
 * still in progress when it sees the close, so the outcome is final by then. All of it runs
 * on the connection's event loop, so {@link #firstBytes} needs no synchronization.
 */
final class ConnectionEndWatcher extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionEndWatcher.class);

    private final ReadyConnections.ConnectionAddresses addresses;
    private final boolean tlsPort;
    private final ReadyConnections ready;
    private final RefusedConnectionLog refusedLog;
    /** The start of the client's first read; null until the client sent something. */
    private byte[] firstBytes;

    ConnectionEndWatcher(ReadyConnections.ConnectionAddresses addresses, boolean tlsPort, ReadyConnections ready,
                         RefusedConnectionLog refusedLog) {
        this.addresses = addresses;
        this.tlsPort = tlsPort;
        this.ready = ready;
        this.refusedLog = refusedLog;
    }

    void onFirstBytes(byte[] bytes) {
        firstBytes = bytes;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ctx.fireChannelInactive();
        if (ready.remove(addresses)) {
            return;
        }
        if (firstBytes == null || firstBytes.length == 0) {
            // A port probe or a health check that connects and leaves: not a refusal. Also a TLS
            // client on a plaintext port that aborted (reset) on the server's first bytes
            // before its ClientHello was read; its retries are usually read and reported.
            LOG.debug("connection from {} closed before it sent anything", addresses.remote());
            return;
        }
        Refusal refusal = RefusalClassifier.classify(tlsPort, firstBytes, ctx.pipeline().get(SslHandler.class));
        refusedLog.onRefused(addresses.remote(), refusal);
    }
}

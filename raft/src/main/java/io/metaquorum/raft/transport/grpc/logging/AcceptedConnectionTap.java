package io.metaquorum.raft.transport.grpc.logging;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Sits in a listening channel's pipeline ahead of Netty's acceptor, so it sees each accepted
 * connection before gRPC's handlers are added, and puts a {@link ConnectionEndWatcher} and a
 * {@link FirstBytesPeek} at the head of the connection's pipeline. The addresses are read
 * here, while the socket is surely open.
 */
final class AcceptedConnectionTap extends ChannelInboundHandlerAdapter {
    private final boolean tlsPort;
    private final ReadyConnections ready;
    private final RefusedConnectionLog refusedLog;

    AcceptedConnectionTap(boolean tlsPort, ReadyConnections ready, RefusedConnectionLog refusedLog) {
        this.tlsPort = tlsPort;
        this.ready = ready;
        this.refusedLog = refusedLog;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof Channel accepted) {
            ConnectionEndWatcher watcher = new ConnectionEndWatcher(
                    new ReadyConnections.ConnectionAddresses(accepted.localAddress(), accepted.remoteAddress()),
                    tlsPort, ready, refusedLog);
            accepted.pipeline().addFirst(new FirstBytesPeek(watcher));
            accepted.pipeline().addFirst(watcher);
        }
        ctx.fireChannelRead(message);
    }
}

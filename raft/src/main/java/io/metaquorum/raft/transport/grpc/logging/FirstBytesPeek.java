package io.metaquorum.raft.transport.grpc.logging;

import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Copies the start of a connection's first read for its {@link ConnectionEndWatcher} (TLS or
 * not, HTTP/2 preface or not) without consuming it, then takes itself out of the pipeline,
 * so later reads do not pass through it.
 */
final class FirstBytesPeek extends ChannelInboundHandlerAdapter {
    /** Enough for the HTTP/2 preface and for a TLS record header. */
    static final int FIRST_BYTES_MAX = 24;

    private final ConnectionEndWatcher watcher;

    FirstBytesPeek(ConnectionEndWatcher watcher) {
        this.watcher = watcher;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof ByteBuf bytes) {
            byte[] first = new byte[Math.min(bytes.readableBytes(), FIRST_BYTES_MAX)];
            bytes.getBytes(bytes.readerIndex(), first);
            watcher.onFirstBytes(first);
        }
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(message);
    }
}

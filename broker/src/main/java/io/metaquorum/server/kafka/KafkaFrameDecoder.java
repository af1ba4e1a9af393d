package io.metaquorum.server.kafka;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Kafka's framing: each request is an int32 size, then that many bytes. A frame is passed on
 * once whole; a half-written one waits (the idle timeout closes a connection that never
 * finishes it). A size below 0 or above {@code socket.request.max.bytes} closes the
 * connection before anything is buffered for it, so no client makes the node hold more than
 * one frame's limit for it.
 */
final class KafkaFrameDecoder extends ByteToMessageDecoder {
    static final int SIZE_BYTES = Integer.BYTES;

    private final int frameBytesMax;
    private final ConnectionRefusals refusals;
    private boolean refused;

    KafkaFrameDecoder(int frameBytesMax, ConnectionRefusals refusals) {
        this.frameBytesMax = frameBytesMax;
        this.refusals = refusals;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < SIZE_BYTES) {
            return;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0 || size > frameBytesMax) {
            refused = true;
            in.skipBytes(in.readableBytes());
            refusals.close(ctx.channel(), "frame size", "a request of " + size + " bytes, outside 0.."
                    + frameBytesMax + " (socket.request.max.bytes)");
            return;
        }
        if (in.readableBytes() < SIZE_BYTES + size) {
            return;
        }
        in.skipBytes(SIZE_BYTES);
        out.add(in.readRetainedSlice(size));
    }
}

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
 * one frame's limit for it. On a SASL listener the limit is lower until the client has
 * authenticated ({@code sasl.server.max.receive.size}): a client nobody knows yet gets no
 * more than a token's worth of memory.
 */
final class KafkaFrameDecoder extends ByteToMessageDecoder {
    static final int SIZE_BYTES = Integer.BYTES;

    static final String REQUEST_LIMIT_KEY = "socket.request.max.bytes";
    static final String SASL_LIMIT_KEY = "sasl.server.max.receive.size";

    private final int frameBytesMax;
    private final ConnectionRefusals refusals;
    /** Invariant: at most {@link #frameBytesMax}; lower only until {@link #authenticated()}. */
    private int limitBytesMax;
    private String limitKey;
    private boolean refused;

    KafkaFrameDecoder(int frameBytesMax, ConnectionRefusals refusals) {
        this.frameBytesMax = frameBytesMax;
        this.refusals = refusals;
        this.limitBytesMax = frameBytesMax;
        this.limitKey = REQUEST_LIMIT_KEY;
    }

    /** A decoder for a SASL listener: frames up to {@code unauthenticatedBytesMax} until {@link #authenticated()}. */
    static KafkaFrameDecoder forSasl(int frameBytesMax, int unauthenticatedBytesMax, ConnectionRefusals refusals) {
        KafkaFrameDecoder decoder = new KafkaFrameDecoder(frameBytesMax, refusals);
        if (unauthenticatedBytesMax < frameBytesMax) {
            decoder.limitBytesMax = unauthenticatedBytesMax;
            decoder.limitKey = SASL_LIMIT_KEY;
        }
        return decoder;
    }

    /** The client authenticated: frames up to {@code socket.request.max.bytes} from now on. */
    void authenticated() {
        limitBytesMax = frameBytesMax;
        limitKey = REQUEST_LIMIT_KEY;
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
        if (size < 0 || size > limitBytesMax) {
            refused = true;
            in.skipBytes(in.readableBytes());
            // The request handler closes the connection once the frames before this one are answered.
            ctx.fireUserEventTriggered(new Refusal("frame size", "a request of " + size + " bytes, outside 0.."
                    + limitBytesMax + " (" + limitKey + ")"));
            return;
        }
        if (in.readableBytes() < SIZE_BYTES + size) {
            return;
        }
        in.skipBytes(SIZE_BYTES);
        out.add(in.readRetainedSlice(size));
    }

    /** A frame this decoder will not read, and why: the connection is to close. */
    record Refusal(String kind, String reason) {
    }
}

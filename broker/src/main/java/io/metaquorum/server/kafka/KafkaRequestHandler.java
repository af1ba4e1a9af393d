package io.metaquorum.server.kafka;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.kafka.ApiVersionsHandler;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import io.metaquorum.security.PrincipalMappingException;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.PeerPrincipal;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import javax.net.ssl.SSLException;
import org.apache.kafka.common.errors.UnknownServerException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of a Kafka-protocol listener: reads each frame into a request
 * ({@link RequestFrames}), hands it to {@link KafkaApis} with the caller (its TLS principal,
 * or {@code User:ANONYMOUS}, and its IP address), and writes the answers in request order
 * ({@link PendingResponses}), whichever thread replies and when. On a SASL listener the
 * caller is the SASL identity, and until the client has authenticated every frame goes
 * through its {@link SaslExchange} instead: a failed authentication is answered, then the
 * connection closes after {@code connection.failed.authentication.delay.ms}.
 *
 * <p>Memory per connection is bounded: while {@value #IN_FLIGHT_REQUESTS_MAX} requests await
 * their answer, or the socket does not take what was written (a client that never reads),
 * the connection reads nothing more, and resumes when that clears. What cannot be read as a
 * request closes the connection ({@link ConnectionRefusals}); no handler sees it.
 *
 * <p>Thread use: reading, the SASL exchange, ordering and writing on the channel's event loop;
 * each authenticated request's handler on the listener's request-handler threads, so that a
 * large read (every topic of a big cluster) holds up no other connection of the event loop;
 * the reply callbacks fill their slot and hand the writing back to the event loop.
 */
final class KafkaRequestHandler extends ChannelInboundHandlerAdapter {
    /** Requests of one connection read and not yet answered, before it stops reading. */
    static final int IN_FLIGHT_REQUESTS_MAX = 16;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaRequestHandler.class);

    private final String logPrefix;
    private final String listenerName;
    private final KafkaApis apis;
    private final SslPrincipalMapping mapping;
    private final ConnectionRefusals refusals;
    private final PendingResponses pending = new PendingResponses();
    /** On a SASL listener, the connection's authentication; empty on PLAINTEXT and SSL. */
    private final Optional<SaslExchange> sasl;
    private final long failedAuthenticationDelayMs;
    private final Executor handlerThreads;
    /**
     * The connection's caller, known at its first request (after any TLS handshake), or on a
     * SASL listener once the client has authenticated.
     */
    private Optional<Caller> caller = Optional.empty();
    /** The client shut its side down: answer what it sent, then close. */
    private boolean inputShutDown;
    /** Why the connection closes once what came before is answered; nothing more is read meanwhile. */
    private Optional<KafkaFrameDecoder.Refusal> refusal = Optional.empty();

    /** @param handlerThreads where the APIs' handlers run ({@code Runnable::run}: on the event loop) */
    KafkaRequestHandler(String logPrefix, String listenerName, KafkaApis apis, SslPrincipalMapping mapping,
                        ConnectionRefusals refusals, Optional<SaslExchange> sasl, long failedAuthenticationDelayMs,
                        Executor handlerThreads) {
        this.logPrefix = logPrefix;
        this.listenerName = listenerName;
        this.apis = apis;
        this.mapping = mapping;
        this.refusals = refusals;
        this.sasl = sasl;
        this.failedAuthenticationDelayMs = failedAuthenticationDelayMs;
        this.handlerThreads = handlerThreads;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        ByteBuffer bytes;
        try {
            // A copy: a parsed request may keep views of its buffer after the frame is released.
            bytes = ByteBuffer.allocate(frame.readableBytes());
            frame.readBytes(bytes);
            bytes.flip();
        } finally {
            frame.release();
        }
        if (!ctx.channel().isActive() || refusal.isPresent()) {
            return;
        }
        if (sasl.isPresent() && !sasl.get().complete()) {
            if (!sasl.get().failed()) {
                receiveUnauthenticated(ctx, sasl.get(), bytes);
            }
            return;
        }
        dispatch(ctx, RequestFrames.parse(bytes));
    }

    private void dispatch(ChannelHandlerContext ctx, RequestFrames.Parsed parsed) {
        if (parsed instanceof RequestFrames.Refused refused) {
            refuse(ctx, new KafkaFrameDecoder.Refusal(refused.kind(), refused.reason()));
        } else if (parsed instanceof RequestFrames.NewerApiVersions newer) {
            // Written at v0, whatever version was asked: the one every client reads.
            PendingResponses.Slot slot = pending.reserve(ApiKeys.API_VERSIONS, (short) 0,
                    newer.header().correlationId());
            slot.fill(ApiVersionsHandler.unsupportedVersion(apis.advertised()));
            writeReady(ctx);
        } else if (parsed instanceof RequestFrames.Request request) {
            serve(ctx, request.header(), request.request());
        }
    }

    /** A frame before authentication: only what {@link SaslExchange} lets through reaches the APIs. */
    private void receiveUnauthenticated(ChannelHandlerContext ctx, SaslExchange exchange, ByteBuffer bytes) {
        SaslExchange.Step step = exchange.receive(bytes);
        if (step instanceof SaslExchange.Pass pass) {
            dispatch(ctx, pass.parsed());
        } else if (step instanceof SaslExchange.Answer answer) {
            RequestHeader header = answer.header();
            pending.reserve(header.apiKey(), header.apiVersion(), header.correlationId()).fill(answer.response());
            writeReady(ctx);
        } else if (step instanceof SaslExchange.RawAnswer raw) {
            // Before authentication every answer is written as soon as it is made, so a raw one keeps the order.
            Invariants.check(pending.size() == 0, "a raw SASL token behind %s pending answers", pending.size());
            raw.token().ifPresent(token -> ctx.writeAndFlush(Unpooled.buffer(KafkaFrameDecoder.SIZE_BYTES
                    + token.length).writeInt(token.length).writeBytes(token)));
        } else if (step instanceof SaslExchange.Refuse refuse) {
            refusals.close(ctx.channel(), refuse.kind(), refuse.reason());
            return;
        }
        if (exchange.failed()) {
            ctx.channel().config().setAutoRead(false);
            refusals.closeAfter(ctx.channel(), failedAuthenticationDelayMs, "SASL authentication",
                    exchange.mechanism() == null ? "the handshake asked for a mechanism not enabled here"
                            : "SASL/" + exchange.mechanism() + " failed");
        } else if (exchange.complete()) {
            onAuthenticated(ctx, exchange);
        }
    }

    private void onAuthenticated(ChannelHandlerContext ctx, SaslExchange exchange) {
        KafkaFrameDecoder frames = ctx.pipeline().get(KafkaFrameDecoder.class);
        if (frames != null) {
            frames.authenticated();
        }
        caller = Optional.of(new Caller(Principal.user(exchange.authorizationId()),
                ConnectionRefusals.host(ctx.channel().remoteAddress())));
        LOG.debug("{}Kafka listener {}: {} authenticated with SASL/{}", logPrefix, listenerName, caller.get(),
                exchange.mechanism());
    }

    private void serve(ChannelHandlerContext ctx, RequestHeader header, AbstractRequest request) {
        Optional<Caller> known = caller(ctx);
        if (known.isEmpty()) {
            return;
        }
        PendingResponses.Slot slot = pending.reserve(header.apiKey(), header.apiVersion(), header.correlationId());
        KafkaCall call = new KafkaCall(CallOrigin.CLIENT.by(known.get()), listenerName, header.apiVersion());
        try {
            // ApiVersions is answered at once, from what is registered: also before SASL authentication,
            // where each answer is written before the next token is read.
            Executor executor = header.apiKey() == ApiKeys.API_VERSIONS ? Runnable::run : handlerThreads;
            executor.execute(() -> handle(ctx, slot, call, request));
        } catch (RejectedExecutionException e) {
            // Only a closing listener refuses work; its connections close with it.
            ctx.close();
            return;
        }
        updateReading(ctx);
    }

    private void handle(ChannelHandlerContext ctx, PendingResponses.Slot slot, KafkaCall call,
                        AbstractRequest request) {
        try {
            apis.handle(call, request, response -> reply(ctx, slot, response));
        } catch (RuntimeException e) {
            LOG.error("{}Kafka listener {}: {} failed for {}", logPrefix, listenerName, slot, call.origin(), e);
            reply(ctx, slot, request.getErrorResponse(new UnknownServerException("the node failed to serve "
                    + request.apiKey() + "; see its log")));
        }
    }

    private void reply(ChannelHandlerContext ctx, PendingResponses.Slot slot, AbstractResponse response) {
        if (!slot.fill(response)) {
            LOG.error("{}Kafka listener {}: a second reply to {} ignored", logPrefix, listenerName, slot);
            return;
        }
        if (ctx.executor().inEventLoop()) {
            writeReady(ctx);
        } else {
            ctx.executor().execute(() -> writeReady(ctx));
        }
    }

    /** Writes the answers that are next in order, then reads again if the limits allow. */
    private void writeReady(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            return;
        }
        boolean wrote = false;
        for (PendingResponses.Slot slot : pending.takeReady()) {
            ByteBuffer frame;
            try {
                frame = ResponseFrames.frame(slot.apiKey(), slot.apiVersion(), slot.correlationId(), slot.response());
            } catch (RuntimeException e) {
                LOG.error("{}Kafka listener {}: cannot write the answer to {}; closing the connection", logPrefix,
                        listenerName, slot, e);
                ctx.close();
                return;
            }
            ctx.write(Unpooled.wrappedBuffer(frame));
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
        if (!closeIfAnswered(ctx)) {
            updateReading(ctx);
        }
    }

    /** Stops reading, and closes the connection once the requests before the refused one are answered. */
    private void refuse(ChannelHandlerContext ctx, KafkaFrameDecoder.Refusal why) {
        if (refusal.isEmpty()) {
            refusal = Optional.of(why);
            ctx.channel().config().setAutoRead(false);
            closeIfAnswered(ctx);
        }
    }

    /**
     * Once a refused connection, or a client that shut down its output, has every answer it is
     * due, closes it after they are written; true when it did.
     */
    private boolean closeIfAnswered(ChannelHandlerContext ctx) {
        if ((!inputShutDown && refusal.isEmpty()) || pending.size() > 0) {
            return false;
        }
        if (refusal.isPresent()) {
            refusals.close(ctx.channel(), refusal.get().kind(), refusal.get().reason());
        } else {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
        return true;
    }

    /** Reads while fewer than the limit await an answer and the socket takes what is written. */
    private void updateReading(ChannelHandlerContext ctx) {
        boolean failing = sasl.isPresent() && sasl.get().failed();
        boolean read = !failing && refusal.isEmpty() && pending.size() < IN_FLIGHT_REQUESTS_MAX && ctx.channel().isWritable();
        if (ctx.channel().config().isAutoRead() != read) {
            ctx.channel().config().setAutoRead(read);
        }
    }

    /** The connection's caller; empty, and the connection closed, when its certificate maps to no principal. */
    private Optional<Caller> caller(ChannelHandlerContext ctx) {
        if (caller.isEmpty() && sasl.isPresent()) {
            // Before authentication only ApiVersions gets here, which needs no principal.
            return Optional.of(new Caller(Principal.ANONYMOUS, ConnectionRefusals.host(ctx.channel().remoteAddress())));
        }
        if (caller.isEmpty()) {
            SslHandler tls = ctx.pipeline().get(SslHandler.class);
            String host = ConnectionRefusals.host(ctx.channel().remoteAddress());
            try {
                Principal principal = PeerPrincipal.of(tls == null ? null : tls.engine().getSession(), mapping);
                caller = Optional.of(new Caller(principal, host));
            } catch (PrincipalMappingException e) {
                refusals.close(ctx.channel(), "unauthenticated", e.getMessage());
            }
        }
        return caller;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateReading(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof KafkaFrameDecoder.Refusal frameRefusal) {
            refuse(ctx, frameRefusal);
            return;
        }
        if (event instanceof ChannelInputShutdownEvent) {
            inputShutDown = true;
            closeIfAnswered(ctx);
            return;
        }
        if (event instanceof IdleStateEvent) {
            LOG.debug("{}Kafka listener {}: closing idle connection {}", logPrefix, listenerName,
                    ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException || cause.getCause() instanceof SSLException) {
            // A reset by the peer, or a failed TLS handshake, which its completion event logs.
            LOG.debug("{}Kafka listener {}: closing {}: {}", logPrefix, listenerName, ctx.channel().remoteAddress(),
                    cause.toString());
            ctx.close();
            return;
        }
        refusals.close(ctx.channel(), "connection error", cause.toString());
    }
}

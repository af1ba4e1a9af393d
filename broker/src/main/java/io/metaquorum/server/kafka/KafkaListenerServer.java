package io.metaquorum.server.kafka;

import io.metaquorum.net.HostPort;
import io.metaquorum.node.kafka.KafkaApis;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka-protocol listener: a Netty server on its own small event loops (one thread
 * accepts, {@value #WORKER_THREADS} serve the connections), each connection's pipeline being
 * TLS for an SSL or SASL_SSL listener, an idle timeout ({@code connections.max.idle.ms}), Kafka's framing
 * ({@link KafkaFrameDecoder}) and the request handler ({@link KafkaRequestHandler}), which on a
 * SASL listener authenticates the client first ({@link SaslExchange}).
 *
 * <p>Lifecycle: {@link #start} binds or throws; {@link #close} stops accepting, closes every
 * connection and ends the threads. A request whose answer comes after close is dropped.
 */
public final class KafkaListenerServer implements AutoCloseable {
    static final int WORKER_THREADS = 2;
    /**
     * Threads that run the APIs' handlers (Kafka's {@code num.io.threads}, fixed here): reads are
     * answered on them from the image, writes wait for the controller without holding one.
     */
    static final int REQUEST_HANDLER_THREADS = 4;
    private static final long SHUTDOWN_QUIET_MS = 0;
    private static final long SHUTDOWN_TIMEOUT_MS = 2_000;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaListenerServer.class);

    private final KafkaListenerSettings settings;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService handlerThreads;
    private final Channel server;

    private KafkaListenerServer(KafkaListenerSettings settings, EventLoopGroup boss, EventLoopGroup workers,
                                ExecutorService handlerThreads, Channel server) {
        this.settings = settings;
        this.boss = boss;
        this.workers = workers;
        this.handlerThreads = handlerThreads;
        this.server = server;
    }

    /**
     * Binds the listener's address and serves {@code apis}; throws {@link IllegalStateException}
     * if it cannot bind. A SASL listener finds SCRAM credentials in {@code scram}, and advertises
     * and answers SaslHandshake and SaslAuthenticate besides {@code apis}.
     */
    public static KafkaListenerServer start(KafkaListenerSettings settings, KafkaApis apis,
                                            ScramCredentialStore scram) {
        KafkaApis served = settings.sasl().isPresent() ? apis.withSasl() : apis;
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(WORKER_THREADS, NioIoHandler.newFactory());
        ExecutorService handlerThreads = Executors.newFixedThreadPool(REQUEST_HANDLER_THREADS,
                new DefaultThreadFactory("kafka-handler-" + settings.listenerName(), true));
        ServerBootstrap bootstrap = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // A client that shuts its output down still gets the answers to what it sent.
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        pipeline(channel.pipeline(), settings, served, scram, handlerThreads);
                    }
                });
        HostPort address = settings.address();
        try {
            Channel server = bootstrap.bind(address.toAddress()).syncUninterruptibly().channel();
            KafkaListenerServer started = new KafkaListenerServer(settings, boss, workers, handlerThreads, server);
            LOG.info("{}Kafka listener {} serving on {}", settings.logPrefix(), settings.listenerName(),
                    started.boundAddress());
            return started;
        } catch (RuntimeException e) {
            shutDown(boss, workers, handlerThreads);
            throw new IllegalStateException("cannot bind Kafka listener " + settings.listenerName() + " on "
                    + address + ": " + e.getMessage(), e);
        }
    }

    /** The connection pipeline: [TLS], idle timeout, framing (lower limit until SASL authenticates), requests. */
    static void pipeline(ChannelPipeline pipeline, KafkaListenerSettings settings, KafkaApis apis,
                         ScramCredentialStore scram, Executor handlerThreads) {
        ConnectionRefusals refusals = new ConnectionRefusals(settings.listenerName(), settings.refusals());
        settings.tls().ifPresent(tls -> pipeline.addLast("tls", tls.newHandler(pipeline.channel().alloc())));
        pipeline.addLast("idle", new IdleStateHandler(0, 0, settings.idleMsMax(), TimeUnit.MILLISECONDS));
        Optional<SaslListenerSettings> sasl = settings.sasl();
        pipeline.addLast("frames", sasl.isPresent()
                ? KafkaFrameDecoder.forSasl(settings.requestBytesMax(), sasl.get().receiveBytesMax(), refusals)
                : new KafkaFrameDecoder(settings.requestBytesMax(), refusals));
        Optional<SaslExchange> exchange = sasl.map(saslSettings -> new SaslExchange(saslSettings, scram,
                settings.address().host()));
        pipeline.addLast("requests", new KafkaRequestHandler(settings.logPrefix(), settings.listenerName(), apis,
                settings.mapping(), refusals, exchange,
                sasl.map(SaslListenerSettings::failedAuthenticationDelayMs).orElse(0L),
                new SerialExecutor(handlerThreads)));
        if (settings.tls().isPresent()) {
            pipeline.addLast("handshake-failures", new HandshakeFailures(refusals));
        }
    }

    /** The configured host with the port bound (the chosen one for port 0). */
    public HostPort boundAddress() {
        return new HostPort(settings.address().host(),
                ((InetSocketAddress) server.localAddress()).getPort());
    }

    /** The listener's name in {@code listeners}. */
    public String listenerName() {
        return settings.listenerName();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        shutDown(boss, workers, handlerThreads);
    }

    private static void shutDown(EventLoopGroup boss, EventLoopGroup workers, ExecutorService handlerThreads) {
        handlerThreads.shutdownNow();
        boss.shutdownGracefully(SHUTDOWN_QUIET_MS, SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        workers.shutdownGracefully(SHUTDOWN_QUIET_MS, SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        boss.terminationFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
        workers.terminationFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
        try {
            handlerThreads.awaitTermination(SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Logs a failed TLS handshake (rate-limited): a client without a trusted certificate, or not speaking TLS. */
    private static final class HandshakeFailures extends io.netty.channel.ChannelInboundHandlerAdapter {
        private final ConnectionRefusals refusals;

        HandshakeFailures(ConnectionRefusals refusals) {
            this.refusals = refusals;
        }

        @Override
        public void userEventTriggered(io.netty.channel.ChannelHandlerContext ctx, Object event) {
            if (event instanceof SslHandshakeCompletionEvent completion && !completion.isSuccess()) {
                refusals.close(ctx.channel(), "TLS handshake", String.valueOf(completion.cause().getMessage()));
            }
            ctx.fireUserEventTriggered(event);
        }
    }
}

package io.metaquorum.raft.transport.grpc.logging;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.util.NettyRuntime;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.metaquorum.common.time.SystemTime;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * Makes a gRPC server log each connection it refuses (one that closes before gRPC calls it
 * ready: garbage, HTTP/1, TLS on a plaintext port or the reverse, a failed TLS handshake) as
 * one rate-limited WARN line with the peer's address and the reason; see
 * {@link RefusedConnectionLog}.
 *
 * <p>Why this way. gRPC has no public hook for a connection that fails before it is ready: a
 * {@code ServerTransportFilter} hears of a connection only once it is ready, gRPC's own
 * "Transport failed" record has the cause but not the peer, and the protocol negotiator that
 * could wrap the TLS handler is internal API ({@code InternalProtocolNegotiator}). The public
 * API that reaches every accepted connection is {@link NettyServerBuilder#channelFactory}:
 * the listening channel it builds gets an {@link AcceptedConnectionTap} in its pipeline
 * before the server bootstrap adds its acceptor, and the tap puts a watcher at the head of
 * each accepted connection's pipeline. At the head, the watcher knows the remote address
 * and, when the connection closes, can read the TLS handler's handshake outcome and the
 * first bytes the client sent; a {@link ReadyConnections} filter tells it whether gRPC ever
 * called the connection ready. Netty's epoll server channel is final, which is why the tap
 * goes into the listening channel's pipeline instead of a subclass.
 *
 * <p>Cost: a custom channel factory obliges the server to bring its own boss and worker
 * event loops, created here the way gRPC creates its defaults (epoll where available, else
 * NIO; one boss thread; as many workers as processors; daemon threads) and shut down by
 * {@link #close} after the server. The watcher handles only the close, so healthy connections
 * pay nothing per message.
 */
public final class RefusedConnectionWatch implements AutoCloseable {
    private static final long EVENT_LOOP_SHUTDOWN_WAIT_MS = 5_000;

    private final boolean tlsPort;
    private final RefusedConnectionLog refusedLog;
    private final ReadyConnections ready = new ReadyConnections();
    private final boolean epoll = Epoll.isAvailable();
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;

    /**
     * @param tlsPort    whether the server's credentials are TLS ones
     * @param refusedLog where the WARN lines go
     */
    public RefusedConnectionWatch(int localId, boolean tlsPort, RefusedConnectionLog refusedLog) {
        this.tlsPort = tlsPort;
        this.refusedLog = refusedLog;
        this.boss = newGroup(1, "node-" + localId + "-grpc-boss");
        this.workers = newGroup(NettyRuntime.availableProcessors(), "node-" + localId + "-grpc-worker");
    }

    /** The production wiring: WARN lines to this class's slf4j logger, with the node's prefix. */
    public static RefusedConnectionWatch forNode(int localId, boolean tlsPort) {
        return new RefusedConnectionWatch(localId, tlsPort, new RefusedConnectionLog(
                LoggerFactory.getLogger(RefusedConnectionWatch.class), "[node " + localId + "] ",
                new LineRateLimiter(SystemTime.INSTANCE, LineRateLimiter.INTERVAL_MS)));
    }

    /** Sets the builder's listening channels, event loops and the ready filter. */
    public NettyServerBuilder applyTo(NettyServerBuilder builder) {
        return builder.channelFactory(this::newListeningChannel)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .addTransportFilter(ready);
    }

    private ServerChannel newListeningChannel() {
        ServerChannel channel = epoll ? new EpollServerSocketChannel() : new NioServerSocketChannel();
        channel.pipeline().addLast(new AcceptedConnectionTap(tlsPort, ready, refusedLog));
        return channel;
    }

    private EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), io);
    }

    /**
     * Shuts the event loops down; call after the server has terminated. They run their
     * pending tasks first, so every closed connection has been reported when this returns.
     */
    @Override
    public void close() {
        boss.shutdownGracefully(0, EVENT_LOOP_SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS);
        workers.shutdownGracefully(0, EVENT_LOOP_SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS);
        try {
            boss.awaitTermination(EVENT_LOOP_SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS);
            workers.awaitTermination(EVENT_LOOP_SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.metaquorum.raft.transport.grpc;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.metaquorum.raft.transport.grpc.logging.GrpcJavaLoggingBridge;
import io.metaquorum.raft.transport.grpc.logging.RefusedConnectionWatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started gRPC server (Netty, plaintext or TLS as the settings say) bound on one or more listen addresses, hosting
 * the Raft service and any extra services the node runtime adds (admin, broker).
 *
 * <p>Limits: inbound messages above {@link GrpcConnectionSettings#messageBytesMax()} are
 * refused by gRPC with RESOURCE_EXHAUSTED and the connection stays usable. Keepalive pings
 * from peers are permitted at the interval the transport's channels use, idle connections
 * included; otherwise the server would answer a peer's pings with GOAWAY.
 *
 * <p>Logging: a connection refused before it became a gRPC connection (garbage, HTTP/1, a
 * TLS mismatch or a failed handshake) is one rate-limited WARN line naming the peer and the
 * reason ({@link RefusedConnectionWatch}), and what gRPC logs through java.util.logging goes
 * to slf4j one line per record, rate-limited, without stack traces ({@link GrpcJavaLoggingBridge}).
 *
 * <p>Closing is prompt: in-flight calls (parked Fetch long polls) end at once and their
 * connections are closed, so callers see UNAVAILABLE rather than waiting for a timeout.
 * Thread-safe.
 */
public final class RaftGrpcServer {
    private static final Logger LOG = LoggerFactory.getLogger(RaftGrpcServer.class);
    private static final long DRAIN_WAIT_MS = 200;
    /**
     * gRPC logs every oversized request it refuses (RESOURCE_EXHAUSTED) with a full stack
     * trace at WARNING, so any client could flood a node's log; the caller already gets the
     * error code. Held here so the level is not lost with a collected logger.
     */
    private static final java.util.logging.Logger DEFRAME_FAILURES =
            java.util.logging.Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerStream");
    private static final long TERMINATION_WAIT_MS = 5_000;
    /** Time for a new connection's TLS and HTTP/2 handshakes, far above a healthy one's few milliseconds. */
    static final long HANDSHAKE_TIMEOUT_MS = 10_000;

    private final Server server;
    private final RefusedConnectionWatch refusedConnections;
    private final String logPrefix;

    private RaftGrpcServer(Server server, RefusedConnectionWatch refusedConnections, String logPrefix) {
        this.server = server;
        this.refusedConnections = refusedConnections;
        this.logPrefix = logPrefix;
    }

    /**
     * Binds every listener and starts serving. Throws {@link UncheckedIOException} if an
     * address cannot be bound (nothing stays bound then).
     */
    public static RaftGrpcServer start(int localId, List<InetSocketAddress> listeners, List<BindableService> services,
                                       GrpcConnectionSettings settings) {
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("a server needs at least one listen address");
        }
        DEFRAME_FAILURES.setLevel(java.util.logging.Level.SEVERE);
        GrpcJavaLoggingBridge.installOnce();
        RefusedConnectionWatch refusedConnections =
                RefusedConnectionWatch.forNode(localId, !settings.security().isPlaintext());
        NettyServerBuilder builder = refusedConnections.applyTo(
                NettyServerBuilder.forAddress(listeners.get(0), settings.security().server()));
        for (InetSocketAddress listener : listeners.subList(1, listeners.size())) {
            builder.addListenAddress(listener);
        }
        // Half the peers' ping interval: a ping that arrives a little early is not abuse.
        // Direct executor: the services only validate and enqueue (they never block), so
        // handing each call to another thread would add a hop to every commit's latency.
        builder.maxInboundMessageSize(settings.messageBytesMax())
                .directExecutor()
                .flowControlWindow(settings.messageBytesMax())
                .permitKeepAliveTime(Math.max(1, settings.keepAliveTimeMs() / 2), TimeUnit.MILLISECONDS)
                .permitKeepAliveWithoutCalls(true)
                // gRPC's default is 120 s: a peer that sends half a TLS record would hold a connection that long.
                .handshakeTimeout(HANDSHAKE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        services.forEach(builder::addService);
        builder.intercept(settings.security().identity());
        Server server = builder.build();
        String logPrefix = "[node " + localId + "] ";
        try {
            server.start();
        } catch (IOException e) {
            server.shutdownNow();
            refusedConnections.close();
            throw new UncheckedIOException("node " + localId + " cannot listen on " + listeners, e);
        }
        LOG.info("{}serving Raft on {} ({})", logPrefix, server.getListenSockets(), settings.security().protocol());
        return new RaftGrpcServer(server, refusedConnections, logPrefix);
    }

    /** The addresses actually bound, in listener order (the real port where 0 was asked). */
    public List<InetSocketAddress> boundAddresses() {
        return server.getListenSockets().stream().map(InetSocketAddress.class::cast).toList();
    }

    /**
     * Stops taking calls (new ones are refused with UNAVAILABLE), runs {@code failInFlight}
     * so the services can fail their parked calls with a status of their choice, waits up to
     * {@value #DRAIN_WAIT_MS} ms for the calls to end, then cancels whatever is left and
     * closes the connections, and last the server's event loops.
     */
    public void close(Runnable failInFlight) {
        server.shutdown();
        failInFlight.run();
        try {
            // Lets the failures just sent reach their callers before connections are cut.
            if (!server.awaitTermination(DRAIN_WAIT_MS, TimeUnit.MILLISECONDS)) {
                server.shutdownNow();
                if (!server.awaitTermination(TERMINATION_WAIT_MS, TimeUnit.MILLISECONDS)) {
                    LOG.warn("{}gRPC server did not terminate within {} ms", logPrefix, TERMINATION_WAIT_MS);
                }
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
        refusedConnections.close();
    }
}

package io.metaquorum.server.broker;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.node.BrokerNode;
import io.metaquorum.broker.node.ImagePublishingListener;
import io.metaquorum.broker.partition.disk.LogManager;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.RaftListener;
import io.grpc.ChannelCredentials;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker role of a node: the deterministic {@link BrokerNode} (lifecycle with the
 * controllers, image gating, partition directories), given a thread ({@link BrokerNodeThread}),
 * gRPC for its lifecycle calls ({@link GrpcLifecycleTransport}) and the real disk through the
 * {@link LogManager}, whose own thread does the directory I/O so a slow disk never holds up a
 * heartbeat. A new incarnation id is drawn on every start, so the controllers can tell a
 * restart from a second process with the same id.
 *
 * <p>The {@link BrokerNode} is built at {@link #start}, not at {@link #create}: it registers
 * the node's listener with the port the transport bound, which is known only once the raft
 * driver has started it (with {@code listeners=HOST:0}, any free port).
 */
public final class BrokerRole implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRole.class);
    private static final long RETRY_BACKOFF_MS = 100;
    private static final long RETRY_BACKOFF_MAX_MS = 1_000;

    private final String logPrefix;
    private final Settings settings;
    private final MetadataLoader loader;
    private final BrokerNodeThread thread;
    private final GrpcLifecycleTransport transport;
    private final LogManager logManager;

    private BrokerRole(String logPrefix, Settings settings, MetadataLoader loader, BrokerNodeThread thread,
                       GrpcLifecycleTransport transport, LogManager logManager) {
        this.logPrefix = logPrefix;
        this.settings = settings;
        this.loader = loader;
        this.thread = thread;
        this.transport = transport;
        this.logManager = logManager;
    }

    /**
     * The broker's settings, from the node's configuration.
     *
     * @param listenerName the name its endpoint is registered under ({@code listeners})
     * @param credentials  how it connects to the controllers: as its own listener speaks
     */
    public record Settings(String clusterId, int brokerId, String rack, long heartbeatIntervalMs,
                           Map<Integer, InetSocketAddress> controllers, long callTimeoutMs, List<Path> logDirs,
                           long deleteStaleTopicDelayMs, String listenerName, ChannelCredentials credentials) {
    }

    public static BrokerRole create(String logPrefix, Settings settings, MetadataLoader loader,
                                    FaultHandler faultHandler) {
        LogManager logManager = new LogManager(settings.brokerId(), settings.logDirs(),
                settings.deleteStaleTopicDelayMs(), SystemTime.INSTANCE, logPrefix, faultHandler);
        BrokerNodeThread thread = new BrokerNodeThread(settings.brokerId(), SystemTime.INSTANCE, faultHandler);
        GrpcLifecycleTransport transport = new GrpcLifecycleTransport(settings.controllers(),
                settings.credentials(), settings.callTimeoutMs(), thread);
        return new BrokerRole(logPrefix, settings, loader, thread, transport, logManager);
    }

    /** Wraps the node's state machine so that every new image reaches this broker's thread. */
    public RaftListener wrap(RaftListener stateMachine) {
        return new ImagePublishingListener(stateMachine, loader, thread::onImage);
    }

    /**
     * Starts the broker, which registers {@code listener} as its first endpoint (the gRPC one,
     * which readers take as the broker's address), then {@code kafkaEndpoints}. Every listener
     * is bound by now, so these are the ports they got, not a configured port 0.
     */
    public void start(HostPort listener, List<BrokerEndpoint> kafkaEndpoints) {
        logManager.start();
        thread.start(new BrokerNode(logPrefix, nodeSettings(listener, kafkaEndpoints), loader, transport, logManager,
                SystemTime.INSTANCE::milliseconds));
    }

    /** The broker node's settings, with an incarnation id drawn anew on every start. */
    private BrokerNode.Settings nodeSettings(HostPort listener, List<BrokerEndpoint> kafkaEndpoints) {
        SecureRandom random = new SecureRandom();
        Uuid incarnation = Uuid.newBuilder().setMostSignificantBits(random.nextLong())
                .setLeastSignificantBits(random.nextLong()).build();
        BrokerEndpoint endpoint = BrokerEndpoint.newBuilder().setName(settings.listenerName()).setHost(listener.host())
                .setPort(listener.port()).build();
        List<BrokerEndpoint> endpoints = new ArrayList<>(List.of(endpoint));
        endpoints.addAll(kafkaEndpoints);
        return new BrokerNode.Settings(settings.clusterId(), settings.brokerId(), incarnation, endpoints,
                settings.rack(), new LifecycleTimings(settings.heartbeatIntervalMs(), RETRY_BACKOFF_MS,
                RETRY_BACKOFF_MAX_MS), new ArrayList<>(settings.controllers().keySet()), settings.callTimeoutMs());
    }

    /** The image offset whose partition directories are all in place, -1 before any. */
    public long partitionsAppliedOffset() {
        return logManager.appliedOffset();
    }

    /** How many log dirs a full disk took offline (they stay so until a restart). */
    public int offlineLogDirCount() {
        return logManager.offlineLogDirs().size();
    }

    public BrokerState state() {
        return thread.state();
    }

    /** Controlled shutdown, waiting up to {@code timeoutMs} for the controller to release it. */
    public void shutDownGracefully(long timeoutMs) {
        try {
            if (!thread.shutDownGracefully(timeoutMs)) {
                LOG.warn("{}controlled shutdown not confirmed within {} ms (state {}); stopping anyway", logPrefix,
                        timeoutMs, thread.state());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        thread.close();
        transport.close();
        logManager.close();
    }
}

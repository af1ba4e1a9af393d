package io.metaquorum.server.broker;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.node.BrokerNode;
import io.metaquorum.broker.node.ImagePublishingListener;
import io.metaquorum.broker.partition.disk.LogManager;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.RaftListener;
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
 */
public final class BrokerRole implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRole.class);
    private static final long RETRY_BACKOFF_MS = 100;
    private static final long RETRY_BACKOFF_MAX_MS = 1_000;

    private final String logPrefix;
    private final MetadataLoader loader;
    private final BrokerNode node;
    private final BrokerNodeThread thread;
    private final GrpcLifecycleTransport transport;
    private final LogManager logManager;

    private BrokerRole(String logPrefix, MetadataLoader loader, BrokerNode node, BrokerNodeThread thread,
                       GrpcLifecycleTransport transport, LogManager logManager) {
        this.logPrefix = logPrefix;
        this.loader = loader;
        this.node = node;
        this.thread = thread;
        this.transport = transport;
        this.logManager = logManager;
    }

    /** The broker's settings, from the node's configuration. */
    public record Settings(String clusterId, int brokerId, InetSocketAddress listener, String rack,
                           long heartbeatIntervalMs, Map<Integer, InetSocketAddress> controllers,
                           long callTimeoutMs, List<Path> logDirs, long deleteStaleTopicDelayMs) {
    }

    public static BrokerRole create(String logPrefix, Settings settings, MetadataLoader loader,
                                    FaultHandler faultHandler) {
        SecureRandom random = new SecureRandom();
        Uuid incarnation = Uuid.newBuilder().setMostSignificantBits(random.nextLong())
                .setLeastSignificantBits(random.nextLong()).build();
        BrokerEndpoint endpoint = BrokerEndpoint.newBuilder().setName("PLAINTEXT")
                .setHost(settings.listener().getHostString()).setPort(settings.listener().getPort()).build();
        BrokerNode.Settings nodeSettings = new BrokerNode.Settings(settings.clusterId(), settings.brokerId(),
                incarnation, List.of(endpoint), settings.rack(), new LifecycleTimings(settings.heartbeatIntervalMs(),
                RETRY_BACKOFF_MS, RETRY_BACKOFF_MAX_MS), new ArrayList<>(settings.controllers().keySet()),
                settings.callTimeoutMs());
        LogManager logManager = new LogManager(settings.brokerId(), settings.logDirs(),
                settings.deleteStaleTopicDelayMs(), SystemTime.INSTANCE, logPrefix, faultHandler);
        BrokerNodeThread thread = new BrokerNodeThread(settings.brokerId(), SystemTime.INSTANCE, faultHandler);
        GrpcLifecycleTransport transport = new GrpcLifecycleTransport(settings.controllers(),
                settings.callTimeoutMs(), thread);
        BrokerNode node = new BrokerNode(logPrefix, nodeSettings, loader, transport, logManager,
                SystemTime.INSTANCE::milliseconds);
        return new BrokerRole(logPrefix, loader, node, thread, transport, logManager);
    }

    /** Wraps the node's state machine so that every new image reaches this broker's thread. */
    public RaftListener wrap(RaftListener stateMachine) {
        return new ImagePublishingListener(stateMachine, loader, thread::onImage);
    }

    public void start() {
        logManager.start();
        thread.start(node);
    }

    /** The image offset whose partition directories are all in place, -1 before any. */
    public long partitionsAppliedOffset() {
        return logManager.appliedOffset();
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

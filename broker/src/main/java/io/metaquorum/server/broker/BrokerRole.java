package io.metaquorum.server.broker;

import io.metaquorum.broker.lifecycle.BrokerLifecycle;
import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.partition.disk.LogManager;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.RaftListener;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker role of a node: its lifecycle with the controllers ({@link BrokerLifecycle} on a
 * {@link BrokerLifecycleDriver}) and its partition directories ({@link LogManager}), both fed
 * with the images the node's loader publishes. A new incarnation id is drawn on every start,
 * so the controllers can tell a restart from a second process with the same id.
 *
 * <p>The LogManager gets images only once the broker has replayed the log up to its current
 * registration: the image a restarted broker loads from its own disk may be hours old, and
 * reconciling the directories with it would stage as strays partitions that the current log
 * still assigns here.
 */
public final class BrokerRole implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRole.class);
    private static final long RETRY_BACKOFF_MS = 100;
    private static final long RETRY_BACKOFF_MAX_MS = 1_000;

    private final String logPrefix;
    private final MetadataLoader loader;
    private final BrokerLifecycleDriver lifecycle;
    private final LogManager logManager;

    private BrokerRole(String logPrefix, MetadataLoader loader, BrokerLifecycleDriver lifecycle,
                       LogManager logManager) {
        this.logPrefix = logPrefix;
        this.loader = loader;
        this.lifecycle = lifecycle;
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
        BrokerLifecycle lifecycle = new BrokerLifecycle(logPrefix, settings.clusterId(), settings.brokerId(),
                incarnation, List.of(endpoint), settings.rack(), new LifecycleTimings(settings.heartbeatIntervalMs(),
                RETRY_BACKOFF_MS, RETRY_BACKOFF_MAX_MS));
        LifecycleRpc rpc = new LifecycleRpc(settings.controllers(), settings.callTimeoutMs());
        BrokerLifecycleDriver driver = new BrokerLifecycleDriver(settings.brokerId(), lifecycle, rpc,
                () -> loader.image().lastCommittedOffset(), SystemTime.INSTANCE, faultHandler);
        LogManager logManager = new LogManager(settings.brokerId(), settings.logDirs(),
                settings.deleteStaleTopicDelayMs(), SystemTime.INSTANCE, logPrefix, faultHandler);
        return new BrokerRole(logPrefix, loader, driver, logManager);
    }

    /** Wraps the node's state machine so that every new image reaches this broker. */
    public RaftListener wrap(RaftListener stateMachine) {
        return new ImagePublishingListener(stateMachine, loader, this::onImage);
    }

    private void onImage(MetadataImage image) {
        lifecycle.onMetadataAdvanced();
        long epoch = lifecycle.brokerEpoch();
        if (epoch >= 0 && image.lastCommittedOffset() >= epoch) {
            logManager.onImage(image);
        }
    }

    public void start() {
        logManager.start();
        lifecycle.start();
    }

    /** The image offset whose partition directories are all in place, -1 before any. */
    public long partitionsAppliedOffset() {
        return logManager.appliedOffset();
    }

    public BrokerState state() {
        return lifecycle.state();
    }

    /** Controlled shutdown, waiting up to {@code timeoutMs} for the controller to release it. */
    public void shutDownGracefully(long timeoutMs) {
        try {
            if (!lifecycle.shutDownGracefully(timeoutMs)) {
                LOG.warn("{}controlled shutdown not confirmed within {} ms (state {}); stopping anyway", logPrefix,
                        timeoutMs, lifecycle.state());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        lifecycle.close();
        logManager.close();
    }
}

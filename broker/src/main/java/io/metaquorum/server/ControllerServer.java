package io.metaquorum.server;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.FeatureControlManager.SupportedRange;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.thread.SnapshotWriterThread;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.driver.RaftDriver;
import io.metaquorum.raft.transport.grpc.GrpcConnectionSettings;
import io.metaquorum.raft.transport.grpc.GrpcRaftTransport;
import io.metaquorum.raft.transport.grpc.GrpcTransportConfig;
import io.metaquorum.raft.transport.grpc.TransportWarmUp;
import io.grpc.BindableService;
import io.metaquorum.server.admin.AdminServiceEndpoint;
import io.metaquorum.server.admin.BrokerLifecycleEndpoint;
import io.metaquorum.server.admin.ControllerForwarder;
import io.metaquorum.server.controller.ControllerEventLoop;
import io.metaquorum.server.controller.ControllerRaftBridge;
import io.metaquorum.server.controller.CreateTopicPolicies;
import io.metaquorum.server.controller.NodeControllerGateway;
import io.metaquorum.server.controller.RaftAppendSink;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One controller node, wired in one place (STYLE.md principle 11): the RocksDB metadata log
 * and quorum-state store, the gRPC transport and server on {@code listeners}, the raft
 * driver, the {@link MetadataLoader} and the {@link QuorumController} (on its own
 * {@link ControllerEventLoop}) as its state machine, the {@link SnapshotWriterThread} that
 * writes the loader's snapshots off the driver thread, and the {@link ClusterIdGuard}
 * between transport and driver.
 *
 * <p>Lifecycle: {@link #start} opens and starts everything or closes what it opened and
 * throws; {@link #shutdown} stops in reverse order: the driver (a leader hands over first
 * and the transport closes with it), then the snapshot writer, the controller's loop, then
 * the database.
 */
public final class ControllerServer {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerServer.class);
    /** How long a write forwarded to the active controller may take, beyond its own timeout_ms. */
    static final long FORWARD_TIMEOUT_MS = 10_000;

    private final String logPrefix;
    private final MetadataLogStore store;
    private final RaftNode raftNode;
    private final MetadataLoader loader;
    private final ControllerEventLoop controllerLoop;
    private final ControllerForwarder forwarder;
    private final SnapshotWriterThread snapshotThread;

    private ControllerServer(String logPrefix, MetadataLogStore store, RaftNode raftNode, MetadataLoader loader,
                             ControllerEventLoop controllerLoop, ControllerForwarder forwarder,
                             SnapshotWriterThread snapshotThread) {
        this.forwarder = forwarder;
        this.snapshotThread = snapshotThread;
        this.logPrefix = logPrefix;
        this.store = store;
        this.raftNode = raftNode;
        this.loader = loader;
        this.controllerLoop = controllerLoop;
    }

    public static ControllerServer start(ServerConfig config, String clusterId, FaultHandler faultHandler) {
        int nodeId = config.nodeId();
        String logPrefix = "[node " + nodeId + "] ";
        RaftConfig raftConfig = new RaftConfig(clusterId, nodeId, new ArrayList<>(config.voters().keySet()),
                config.raftTimeouts(), RaftLimits.DEFAULTS).validate();
        ControllerConfig controllerConfig = controllerConfig(config, raftConfig);
        MetadataLogStore store = MetadataLogStore.open(config.metadataLogDir());
        SnapshotWriterThread snapshotThread = null;
        try {
            AtomicReference<RaftNode> node = new AtomicReference<>();
            snapshotThread = new SnapshotWriterThread(logPrefix, store.raftLog()::createSnapshot,
                    task -> node.get().execute(task), SnapshotLimits.DEFAULTS, faultHandler);
            MetadataLoader loader = new MetadataLoader(logPrefix, config.snapshotTriggerBytes(), snapshotThread);
            RaftAppendSink appends = new RaftAppendSink(nodeId, node::get, SystemTime.INSTANCE);
            QuorumController controller = new QuorumController(logPrefix, controllerConfig,
                    new SplittableRandom(new SecureRandom().nextLong()), appends);
            ControllerEventLoop loop = new ControllerEventLoop(nodeId, controller, SystemTime.INSTANCE, faultHandler);
            appends.reportTo(loop);
            ClusterIdGuard guard = new ClusterIdGuard(nodeId, clusterId, raftConfig.voterIds(), faultHandler);
            GrpcTransportConfig transportConfig = new GrpcTransportConfig(nodeId, List.of(config.listener().toAddress()),
                    peers(config), config.raftTimeouts().requestTimeoutMs(), GrpcConnectionSettings.DEFAULTS);
            AtomicReference<GrpcRaftTransport> transport = new AtomicReference<>();
            NodeControllerGateway gateway = new NodeControllerGateway(nodeId, loop, loader, node::get);
            ControllerForwarder forwarder = new ControllerForwarder(nodeId, voterAddresses(config),
                    FORWARD_TIMEOUT_MS);
            List<BindableService> services = List.of(new AdminServiceEndpoint(gateway, forwarder, clusterId).service(),
                    new BrokerLifecycleEndpoint(gateway, forwarder, clusterId).service());
            RaftDriver driver = new RaftDriver(raftConfig, store.raftLog(), store.quorumStateStore(),
                    sink -> {
                        transport.set(GrpcRaftTransport.start(transportConfig, guard.wrap(sink), services));
                        return transport.get();
                    }, new ControllerRaftBridge(loader, loop), SystemTime.INSTANCE, faultHandler,
                    new SecureRandom().nextLong());
            node.set(driver);
            snapshotThread.start();
            loop.start();
            driver.start();
            warmUp(logPrefix, transport.get().boundAddresses().get(0), config.raftTimeouts().requestTimeoutMs());
            LOG.info("{}controller started: cluster {}, listening on {}, voters {}", logPrefix, clusterId,
                    config.listener(), config.voters());
            return new ControllerServer(logPrefix, store, driver, loader, loop, forwarder, snapshotThread);
        } catch (RuntimeException e) {
            if (snapshotThread != null) {
                snapshotThread.close();
            }
            store.close();
            throw e;
        }
    }

    private static ControllerConfig controllerConfig(ServerConfig config, RaftConfig raftConfig) {
        ReplicationDefaults defaults = new ReplicationDefaults(config.intValue("num.partitions"),
                config.intValue("default.replication.factor"));
        TreeMap<String, SupportedRange> features = new TreeMap<>();
        features.put(MetadataRecordCodec.METADATA_VERSION_FEATURE, new SupportedRange(
                MetadataRecordCodec.METADATA_VERSION_LEVEL, MetadataRecordCodec.METADATA_VERSION_LEVEL));
        return new ControllerConfig(new ControllerManagers.Settings(defaults,
                config.intValue("broker.session.timeout.ms"), features),
                CreateTopicPolicies.load((String) config.value(CreateTopicPolicies.KEY)), config.idleIntervalMs(),
                raftConfig.limits().appendBatchRecordsMax());
    }

    /**
     * Loads the classes of the Raft, protocol and log modules and runs each RPC once against
     * this node, so that a failover soon after a restart does not wait for class loading
     * ({@link ClassPreloader}, {@link TransportWarmUp}).
     */
    private static void warmUp(String logPrefix, InetSocketAddress self, long callTimeoutMs) {
        long startNanos = System.nanoTime();
        int classes = ClassPreloader.preload(List.of(RaftNode.class, FetchRequest.class, MetadataLogStore.class));
        int calls = TransportWarmUp.run(self, GrpcConnectionSettings.DEFAULTS, callTimeoutMs);
        LOG.info("{}warmed up in {} ms: {} classes loaded, {} of {} RPCs answered", logPrefix,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), classes, calls,
                TransportWarmUp.RPC_COUNT);
    }

    /** Every controller's listener, which serves the admin API as well as raft. */
    private static Map<Integer, InetSocketAddress> voterAddresses(ServerConfig config) {
        Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
        config.voters().forEach((id, address) -> addresses.put(id, address.toAddress()));
        return addresses;
    }

    private static Map<Integer, InetSocketAddress> peers(ServerConfig config) {
        Map<Integer, InetSocketAddress> peers = new TreeMap<>();
        config.voters().forEach((id, address) -> {
            if (id != config.nodeId()) {
                peers.put(id, address.toAddress());
            }
        });
        return peers;
    }

    public MetadataLoader loader() {
        return loader;
    }

    /** Graceful stop: a leader resigns and waits up to {@code timeoutMs} for it to be delivered. */
    public void shutdown(long timeoutMs) {
        LOG.info("{}shutting down (graceful, up to {} ms)", logPrefix, timeoutMs);
        try {
            raftNode.shutdown(timeoutMs);
        } finally {
            snapshotThread.close();
            controllerLoop.close();
            forwarder.close();
            store.close();
        }
        LOG.info("{}stopped", logPrefix);
    }
}

package io.metaquorum.server;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.loader.LeaderRecordWriter;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.driver.RaftDriver;
import io.metaquorum.raft.transport.grpc.GrpcConnectionSettings;
import io.metaquorum.raft.transport.grpc.GrpcRaftTransport;
import io.metaquorum.raft.transport.grpc.GrpcTransportConfig;
import io.metaquorum.raft.transport.grpc.TransportWarmUp;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One controller node, wired in one place (STYLE.md principle 11): the RocksDB metadata log
 * and quorum-state store, the gRPC transport and server on {@code listeners}, the raft
 * driver, the {@link MetadataLoader} as its state machine, the leader's own records, and
 * the {@link ClusterIdGuard} between transport and driver.
 *
 * <p>Lifecycle: {@link #start} opens and starts everything or closes what it opened and
 * throws; {@link #shutdown} stops in reverse order: leader records, then the driver
 * (a leader resigns first and the transport closes with it), then the database.
 */
public final class ControllerServer {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerServer.class);
    /** How often the leader's own-record schedule checks in; well below the idle interval. */
    static final long LEADER_RECORDS_TICK_MS_MAX = 50;

    private final String logPrefix;
    private final MetadataLogStore store;
    private final RaftNode raftNode;
    private final MetadataLoader loader;
    private final LeaderRecordSchedule leaderRecords;

    private ControllerServer(String logPrefix, MetadataLogStore store, RaftNode raftNode, MetadataLoader loader,
                             LeaderRecordSchedule leaderRecords) {
        this.logPrefix = logPrefix;
        this.store = store;
        this.raftNode = raftNode;
        this.loader = loader;
        this.leaderRecords = leaderRecords;
    }

    public static ControllerServer start(ServerConfig config, String clusterId, FaultHandler faultHandler) {
        int nodeId = config.nodeId();
        String logPrefix = "[node " + nodeId + "] ";
        RaftConfig raftConfig = new RaftConfig(clusterId, nodeId, new ArrayList<>(config.voters().keySet()),
                config.raftTimeouts(), RaftLimits.DEFAULTS).validate();
        MetadataLogStore store = MetadataLogStore.open(config.metadataLogDir());
        try {
            AtomicReference<RaftNode> node = new AtomicReference<>();
            MetadataLoader loader = new MetadataLoader(logPrefix, config.snapshotTriggerBytes(),
                    raftConfig.limits().appendBatchRecordsMax(), task -> node.get().execute(task));
            ClusterIdGuard guard = new ClusterIdGuard(nodeId, clusterId, raftConfig.voterIds(), faultHandler);
            GrpcTransportConfig transportConfig = new GrpcTransportConfig(nodeId, List.of(config.listener().toAddress()),
                    peers(config), config.raftTimeouts().requestTimeoutMs(), GrpcConnectionSettings.DEFAULTS);
            AtomicReference<GrpcRaftTransport> transport = new AtomicReference<>();
            RaftDriver driver = new RaftDriver(raftConfig, store.raftLog(), store.quorumStateStore(),
                    sink -> {
                        transport.set(GrpcRaftTransport.start(transportConfig, guard.wrap(sink), List.of()));
                        return transport.get();
                    }, loader, SystemTime.INSTANCE, faultHandler, new SecureRandom().nextLong());
            node.set(driver);
            driver.start();
            warmUp(logPrefix, transport.get().boundAddresses().get(0), config.raftTimeouts().requestTimeoutMs());
            long tickMs = Math.min(LEADER_RECORDS_TICK_MS_MAX, Math.max(1, config.idleIntervalMs() / 2));
            LeaderRecordSchedule leaderRecords = new LeaderRecordSchedule(nodeId, driver, loader,
                    new LeaderRecordWriter(config.idleIntervalMs()), SystemTime.INSTANCE, tickMs);
            leaderRecords.start();
            LOG.info("{}controller started: cluster {}, listening on {}, voters {}", logPrefix, clusterId,
                    config.listener(), config.voters());
            return new ControllerServer(logPrefix, store, driver, loader, leaderRecords);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
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
        leaderRecords.close();
        try {
            raftNode.shutdown(timeoutMs);
        } finally {
            store.close();
        }
        LOG.info("{}stopped", logPrefix);
    }
}

package io.metaquorum.server;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.FeatureControlManager.SupportedRange;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.server.broker.BrokerRole;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.node.controller.ControllerGateway;
import io.metaquorum.server.controller.ControllerRole;
import io.metaquorum.node.controller.ObserverGateway;
import java.util.Optional;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.thread.SnapshotWriterThread;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.driver.RaftDriver;
import io.metaquorum.raft.transport.grpc.GrpcConnectionSettings;
import io.metaquorum.raft.transport.grpc.GrpcRaftTransport;
import io.metaquorum.raft.transport.grpc.GrpcTransportConfig;
import io.metaquorum.raft.transport.grpc.TransportSecurity;
import io.metaquorum.raft.transport.grpc.TransportWarmUp;
import io.grpc.BindableService;
import io.metaquorum.server.admin.AdminServiceEndpoint;
import io.metaquorum.server.admin.BrokerLifecycleEndpoint;
import io.metaquorum.server.admin.ControllerAddresses;
import io.metaquorum.server.admin.ControllerForwarder;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.server.kafka.RaftLeaderQuorum;
import io.metaquorum.server.kafka.ImageScramCredentials;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.server.metrics.MetricsEndpoint;
import io.metaquorum.server.status.LeaderQuorumView;
import io.metaquorum.server.status.StatusReport;
import io.metaquorum.server.metrics.NodeMetrics;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node, wired in one place (docs/engineering-rules.md rule 11) for the roles of its
 * {@code process.roles}: the RocksDB metadata log and quorum-state store, the gRPC transport
 * and server on {@code listeners}, the raft driver (a voter with the controller role, an
 * observer without it), the {@link MetadataLoader}, and
 * <ul>
 *   <li>controller: the {@link QuorumController} on its own event loop ({@link ControllerRole});</li>
 *   <li>broker: the broker lifecycle fed with the loader's images ({@link BrokerRole}).</li>
 * </ul>
 * Every node serves the admin API and the broker RPCs: reads from its own image, writes on
 * its controller when it is the active one, else forwarded; and every node snapshots its
 * image on a {@link SnapshotWriterThread}, off the driver thread. With {@code metrics.listener}
 * set, a {@link MetricsEndpoint} serves the {@link NodeMetrics} (docs/metrics.md), bound before
 * raft starts so a taken port stops the start at once.
 *
 * <p>Lifecycle: {@link #start} opens and starts everything or closes what it opened and
 * throws; {@link #shutdown} stops in order: the broker's controlled shutdown (its
 * leaderships move while the controllers still run), then the driver (a leader hands over
 * first and the transport closes with it), then the snapshot writer and the controller's
 * loop, then the database.
 */
public final class NodeServer {
    /** Hosts that mean "every interface": a listener there names no address to be reached at. */
    private static final Set<String> WILDCARD_HOSTS = Set.of("", "0.0.0.0", "::", "[::]");
    private static final Logger LOG = LoggerFactory.getLogger(NodeServer.class);
    /** How long a write forwarded to the active controller may take, beyond its own timeout_ms. */
    static final long FORWARD_TIMEOUT_MS = 10_000;
    /** How long the status page waits for the leader's DescribeQuorum answer. */
    private static final long STATUS_QUORUM_TIMEOUT_MS = 1_000;

    private final String logPrefix;
    /** Where the node serves: the configured host, the bound port. */
    private final HostPort listener;
    private final MetadataLogStore store;
    private final RaftNode raftNode;
    private final MetadataLoader loader;
    private final Optional<ControllerRole> controller;
    private final Optional<BrokerRole> broker;
    private final ControllerForwarder forwarder;
    private final SnapshotWriterThread snapshotThread;
    private final Optional<MetricsEndpoint> metricsEndpoint;
    private final List<KafkaListeners.Bound> kafkaListeners;
    /** Where the Kafka listeners' DescribeQuorum asks the raft leader. */
    private final RaftLeaderQuorum kafkaQuorum;

    /**
     * What runs beside raft: the snapshot writer and the metrics endpoint, which stop after it,
     * and the Kafka-protocol listeners, which stop before it (no client request is taken while
     * the node winds down).
     */
    private record Beside(SnapshotWriterThread snapshotThread, Optional<MetricsEndpoint> metricsEndpoint,
                          List<KafkaListeners.Bound> kafkaListeners, RaftLeaderQuorum kafkaQuorum) {
    }

    private NodeServer(String logPrefix, HostPort listener, MetadataLogStore store, RaftNode raftNode,
                       MetadataLoader loader, Optional<ControllerRole> controller, Optional<BrokerRole> broker,
                       ControllerForwarder forwarder, Beside beside) {
        this.listener = listener;
        this.metricsEndpoint = beside.metricsEndpoint();
        this.kafkaListeners = beside.kafkaListeners();
        this.kafkaQuorum = beside.kafkaQuorum();
        this.forwarder = forwarder;
        this.snapshotThread = beside.snapshotThread();
        this.logPrefix = logPrefix;
        this.store = store;
        this.raftNode = raftNode;
        this.loader = loader;
        this.controller = controller;
        this.broker = broker;
    }

    public static NodeServer start(ServerConfig config, String clusterId, FaultHandler faultHandler) {
        int nodeId = config.nodeId();
        String logPrefix = "[node " + nodeId + "] ";
        RaftConfig raftConfig = raftConfig(config, clusterId);
        NodeAccess access = NodeSecurity.access(config);
        NodeMetrics metrics = config.metricsListener().isPresent() ? NodeMetrics.on(nodeId) : NodeMetrics.off(nodeId);
        MetadataLogStore store = MetadataLogStore.open(config.metadataLogDir());
        AtomicReference<RaftNode> node = new AtomicReference<>();
        SnapshotWriterThread snapshotThread = new SnapshotWriterThread(logPrefix, metrics.snapshotWriters(
                store.raftLog()::createSnapshot), metrics.snapshotRegistration((writer, registered) ->
                node.get().registerSnapshot(writer, registered)), SnapshotLimits.DEFAULTS, faultHandler);
        Optional<MetricsEndpoint> endpoint = Optional.empty();
        List<KafkaListeners.Bound> kafkaListeners = List.of();
        RaftLeaderQuorum kafkaQuorum = null;
        try {
            MetadataLoader loader = new MetadataLoader(logPrefix, config.snapshotTriggerBytes(), snapshotThread);
            TransportSecurity security = NodeSecurity.of(config, logPrefix, access, loader::image);
            endpoint = config.metricsListener().map(address -> metrics.serve(address,
                    statusReport(config, clusterId, node, loader, security, metrics)));
            Optional<ControllerRole> controller = config.isController()
                    ? Optional.of(ControllerRole.create(nodeId, controllerConfig(config, raftConfig), loader,
                            node::get, faultHandler, metrics.controllerLoop()))
                    : Optional.empty();
            Optional<BrokerRole> broker = config.isBroker()
                    ? Optional.of(BrokerRole.create(logPrefix, brokerSettings(config, clusterId, security), loader,
                            faultHandler))
                    : Optional.empty();
            RaftListener stateMachine = controller.map(ControllerRole::stateMachine).orElse(loader);
            if (broker.isPresent()) {
                stateMachine = broker.get().wrap(stateMachine);
            }
            ControllerGateway gateway = controller.map(ControllerRole::gateway)
                    .orElseGet(() -> new ObserverGateway(nodeId, loader, () -> knownLeaderId(node.get())));
            bindMetrics(metrics, node, loader, controller, broker);
            ControllerAddresses controllerAddresses = new ControllerAddresses(voterAddresses(config),
                    () -> votersOf(node.get(), raftConfig));
            ControllerForwarder forwarder = new ControllerForwarder(nodeId, controllerAddresses, FORWARD_TIMEOUT_MS,
                    security.channel());
            kafkaQuorum = new RaftLeaderQuorum(() -> knownLeaderId(node.get()), () -> votersOf(node.get(),
                    raftConfig).ids(), controllerAddresses, security.channel(), config.raftTimeouts().requestTimeoutMs());
            NodeRequests requests = NodeRequests.create(gateway, forwarder, clusterId, access);
            List<BindableService> services = List.of(
                    new AdminServiceEndpoint(requests.admin(), SystemTime.INSTANCE, nodeId).service(),
                    new BrokerLifecycleEndpoint(requests.lifecycle()).service());
            AtomicReference<GrpcRaftTransport> transport = new AtomicReference<>();
            GrpcConnectionSettings connection = GrpcConnectionSettings.DEFAULTS.withSecurity(security);
            RaftDriver driver = startDriver(config, raftConfig, store, services, metrics.raftListener(stateMachine),
                    transport, connection, faultHandler);
            node.set(driver);
            snapshotThread.start();
            controller.ifPresent(ControllerRole::start);
            driver.start();
            HostPort listener = boundListener(config, transport.get());
            warmUp(logPrefix, listener.toAddress(), connection, config.raftTimeouts().requestTimeoutMs());
            kafkaListeners = KafkaListeners.start(config, logPrefix, KafkaApis.forNode(requests, nodeId,
                    kafkaQuorum, config.listenerSpec().name()), new ImageScramCredentials(loader::image));
            Beside beside = new Beside(snapshotThread, endpoint, kafkaListeners, kafkaQuorum);
            broker.ifPresent(b -> b.start(listener, beside.kafkaListeners().stream().map(NodeServer::endpoint)
                    .toList()));
            logStarted(logPrefix, config, clusterId, listener, kafkaListeners, driver);
            return new NodeServer(logPrefix, listener, store, driver, loader, controller, broker, forwarder, beside);
        } catch (RuntimeException e) {
            KafkaListeners.close(kafkaListeners);
            Optional.ofNullable(kafkaQuorum).ifPresent(RaftLeaderQuorum::close);
            endpoint.ifPresent(MetricsEndpoint::close);
            snapshotThread.close();
            store.close();
            throw e;
        }
    }

    /** The start-up line; the voters in force (the log's latest VotersRecord) may differ from controller.quorum.voters. */
    private static void logStarted(String logPrefix, ServerConfig config, String clusterId, HostPort listener,
                                   List<KafkaListeners.Bound> kafkaListeners, RaftDriver driver) {
        LOG.info("{}node started with roles {}: cluster {}, listening on {}, Kafka listeners {}, voters in force {}",
                logPrefix, config.processRoles(), clusterId, listener,
                kafkaListeners.stream().map(KafkaListeners.Bound::listener).toList(), driver.voters().ids());
    }

    /** The status page's data: this node's state, and the quorum as the leader it knows tracks it. */
    private static StatusReport statusReport(ServerConfig config, String clusterId, AtomicReference<RaftNode> node,
                                             MetadataLoader loader, TransportSecurity security, NodeMetrics metrics) {
        LeaderQuorumView quorum = new LeaderQuorumView(voterAddresses(config), security.channel(),
                STATUS_QUORUM_TIMEOUT_MS);
        return new StatusReport(new StatusReport.Identity(config.nodeId(), clusterId, config.processRoles()),
                () -> node.get() == null ? null : node.get().status(),
                loader::image, quorum, metrics.history(), System::currentTimeMillis);
    }

    /** The gauges over what this node publishes: raft's status, and each role's image and progress. */
    private static void bindMetrics(NodeMetrics metrics, AtomicReference<RaftNode> node, MetadataLoader loader,
                                    Optional<ControllerRole> controller, Optional<BrokerRole> broker) {
        metrics.bindRaft(node::get);
        controller.ifPresent(c -> metrics.bindController(loader, c.gateway()::isActive, node::get));
        broker.ifPresent(b -> metrics.bindBroker(loader, b::partitionsAppliedOffset, b::offlineLogDirCount));
    }

    /**
     * The node's raft settings; its directory id and the voter set it starts from are what
     * {@code mq-storage format} left in the metadata directory (KIP-853). Its own listener is
     * the one {@code mq-metadata add-controller --config} registers: a voter listed elsewhere
     * asks the leader to update its entry (KIP-853 UpdateRaftVoter). Port 0 and a wildcard host
     * are no address a peer can dial, so such a node names none and never asks.
     */
    private static RaftConfig raftConfig(ServerConfig config, String clusterId) {
        Uuid directoryId = MetaProperties.read(config.metadataLogDir()).map(MetaProperties::directoryId)
                .orElse(TopicIds.ZERO);
        HostPort listener = config.listener();
        boolean dialable = listener.port() != 0 && !WILDCARD_HOSTS.contains(listener.host());
        List<VoterSet.Endpoint> localListeners = dialable
                ? List.of(new VoterSet.Endpoint(listener.host(), listener.port())) : List.of();
        return new RaftConfig(clusterId, config.nodeId(), new ArrayList<>(config.voters().keySet()),
                config.raftTimeouts(), RaftLimits.DEFAULTS, directoryId,
                BootstrapVoters.read(config.metadataLogDir()), localListeners).validate();
    }

    private static RaftDriver startDriver(ServerConfig config, RaftConfig raftConfig, MetadataLogStore store,
                                          List<BindableService> services, RaftListener stateMachine,
                                          AtomicReference<GrpcRaftTransport> transport,
                                          GrpcConnectionSettings connection, FaultHandler faultHandler) {
        int nodeId = config.nodeId();
        ClusterIdGuard guard = new ClusterIdGuard(nodeId, raftConfig.clusterId(), raftConfig.voterIds(),
                faultHandler);
        GrpcTransportConfig transportConfig = new GrpcTransportConfig(nodeId, List.of(config.listener().toAddress()),
                peers(config), config.raftTimeouts().requestTimeoutMs(), connection);
        return new RaftDriver(raftConfig, store.raftLog(), store.quorumStateStore(),
                sink -> {
                    transport.set(GrpcRaftTransport.start(transportConfig, guard.wrap(sink), services));
                    return transport.get();
                }, stateMachine, SystemTime.INSTANCE, faultHandler, new SecureRandom().nextLong());
    }

    /**
     * The configured host with the port the transport bound: the configured port, or the one
     * the system chose for {@code listeners=HOST:0}. The host stays as configured, so a name
     * is registered as a name.
     */
    private static HostPort boundListener(ServerConfig config, GrpcRaftTransport transport) {
        return new HostPort(config.listener().host(), transport.boundAddresses().get(0).getPort());
    }

    /** A Kafka listener as a broker registers it: its name, configured host and bound port. */
    private static BrokerEndpoint endpoint(KafkaListeners.Bound bound) {
        ListenerSpec listener = bound.listener();
        return BrokerEndpoint.newBuilder().setName(listener.name()).setHost(listener.address().host())
                .setPort(listener.address().port()).build();
    }

    private static int knownLeaderId(RaftNode raftNode) {
        return raftNode == null ? -1 : raftNode.status().leaderId();
    }

    /** The voter set in force, with endpoints; the bootstrap one until the replica is built. */
    private static VoterSet votersOf(RaftNode raftNode, RaftConfig raftConfig) {
        return raftNode == null ? raftConfig.bootstrapVoters() : raftNode.voters();
    }

    private static BrokerRole.Settings brokerSettings(ServerConfig config, String clusterId,
                                                      TransportSecurity security) {
        String rack = (String) config.value("broker.rack");
        return new BrokerRole.Settings(clusterId, config.nodeId(),
                rack == null ? "" : rack, config.intValue("broker.heartbeat.interval.ms"), voterAddresses(config),
                config.raftTimeouts().requestTimeoutMs(), config.logDirs(),
                config.longValue("delete.stale.topic.delay.ms"), config.listenerSpec().name(), security.channel());
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
                raftConfig.limits().appendBatchRecordsMax(), BootstrapScram.read(config.metadataLogDir()));
    }

    /**
     * Loads the classes of the Raft, protocol and log modules and runs each RPC once against
     * this node, so that a failover soon after a restart does not wait for class loading
     * ({@link ClassPreloader}, {@link TransportWarmUp}).
     */
    private static void warmUp(String logPrefix, InetSocketAddress self, GrpcConnectionSettings connection,
                               long callTimeoutMs) {
        long startNanos = System.nanoTime();
        int classes = ClassPreloader.preload(List.of(RaftNode.class, FetchRequest.class, MetadataLogStore.class));
        int calls = TransportWarmUp.run(self, connection, callTimeoutMs);
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

    /** Where the node serves gRPC: the configured host and the port it bound (the chosen one for port 0). */
    public HostPort listener() {
        return listener;
    }

    /** The Kafka-protocol listeners as bound (the chosen port for port 0), in {@code listeners} order. */
    public List<ListenerSpec> kafkaListeners() {
        return kafkaListeners.stream().map(KafkaListeners.Bound::listener).toList();
    }

    /** Where the metrics endpoint serves: the configured host and the port it bound; empty when off. */
    public Optional<HostPort> metricsListener() {
        return metricsEndpoint.map(MetricsEndpoint::address);
    }

    public MetadataLoader loader() {
        return loader;
    }

    /**
     * Graceful stop: a broker first waits up to {@code timeoutMs} for its leaderships to move,
     * then a leader resigns and waits up to {@code timeoutMs} for it to be delivered.
     */
    public void shutdown(long timeoutMs) {
        LOG.info("{}shutting down (graceful, up to {} ms per step)", logPrefix, timeoutMs);
        try {
            KafkaListeners.close(kafkaListeners);
            kafkaQuorum.close();
            broker.ifPresent(b -> b.shutDownGracefully(timeoutMs));
            raftNode.shutdown(timeoutMs);
        } finally {
            metricsEndpoint.ifPresent(MetricsEndpoint::close);
            snapshotThread.close();
            broker.ifPresent(BrokerRole::close);
            controller.ifPresent(ControllerRole::close);
            forwarder.close();
            store.close();
        }
        LOG.info("{}stopped", logPrefix);
    }
}

package io.metaquorum.raft.transport.grpc;

import com.google.protobuf.Message;
import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.protocol.NodeEndpoint;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.transport.Transport;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link Transport}: Raft RPCs as unary gRPC calls over HTTP/2, plaintext.
 *
 * <p>Outbound: a {@link RaftRequest} becomes an asynchronous call on the destination's
 * channel (one per peer, created on first use, see {@link PeerChannel}) with a deadline of
 * {@code requestTimeoutMs}, plus {@code max_wait_ms} for a Fetch. Its answer comes back to
 * the sink as {@code RaftResponse(peer, local, same correlation id, payload)}; a failed
 * call as {@code RequestFailure(peer, correlation id, reason)}: {@code UNAVAILABLE} (refused,
 * reset or closed connection, the peer process is gone) is {@link RequestFailure.Reason#UNREACHABLE},
 * everything else (a passed deadline included) {@link RequestFailure.Reason#TIMEOUT}. When a
 * peer process dies, the kernel closes its sockets, so a parked Fetch fails with UNAVAILABLE
 * at once and the follower can start a pre-vote without waiting out the fetch timeout.
 *
 * <p>Inbound: the {@link RaftServiceEndpoint} on the {@link RaftGrpcServer}; an outbound
 * {@link RaftResponse} answers the inbound call with its correlation id. Closing fails the
 * calls still parked here with UNAVAILABLE, so a peer whose process stops gracefully is
 * seen as unreachable just like one that was killed.
 *
 * <p>Threading: {@link #send} never blocks and may be called from any thread (in practice
 * the driver thread); the sink is called from gRPC threads. After {@link #close} sends are
 * dropped and nothing more is delivered.
 */
public final class GrpcRaftTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(GrpcRaftTransport.class);
    private static final long TERMINATION_WAIT_MS = 5_000;
    static final MethodDescriptor<FetchRequest, FetchResponse> FETCH =
            AliasingMarshaller.aliasingResponses(RaftServiceGrpc.getFetchMethod(), FetchResponse.parser());
    static final MethodDescriptor<FetchSnapshotRequest, FetchSnapshotResponse> FETCH_SNAPSHOT =
            AliasingMarshaller.aliasingResponses(RaftServiceGrpc.getFetchSnapshotMethod(),
                    FetchSnapshotResponse.parser());

    private final GrpcTransportConfig config;
    private final InboundSink sink;
    private final RaftServiceEndpoint endpoint;
    /** Null for a client-only transport (no listeners). */
    private final RaftGrpcServer server;
    private final String logPrefix;
    /** Guarded by itself; no channel is created once {@link #closed} is set. */
    private final Map<Integer, PeerChannel> channels = new HashMap<>();
    /** Voters' addresses learned from the log ({@link #learnPeers}), ahead of the configured peers; under channels' lock. */
    private final Map<Integer, InetSocketAddress> learnedPeers = new TreeMap<>();
    /** When {@link #keepPeersConnected} next looks at the channels (two racing senders just both look). */
    private long nextPeerCheckNanos = System.nanoTime();
    private volatile boolean closed;

    private GrpcRaftTransport(GrpcTransportConfig config, InboundSink sink, RaftServiceEndpoint endpoint,
                              RaftGrpcServer server) {
        this.config = config;
        this.sink = sink;
        this.endpoint = endpoint;
        this.server = server;
        this.logPrefix = "[node " + config.localId() + "] ";
    }

    /**
     * Binds the listeners (if any) and returns the running transport. {@code extraServices}
     * are served on the same listeners, on the transport threads (direct executor), so they
     * must not block. Throws {@link java.io.UncheckedIOException} if a
     * listener cannot be bound.
     */
    public static GrpcRaftTransport start(GrpcTransportConfig config, InboundSink sink,
                                          List<BindableService> extraServices) {
        config.validate();
        InboundTap inbound = new InboundTap(sink);
        RaftServiceEndpoint endpoint =
                new RaftServiceEndpoint(config.localId(), config.connection().pendingCallsMax(), inbound::deliver);
        RaftGrpcServer server = null;
        if (!config.listeners().isEmpty()) {
            List<BindableService> services = new ArrayList<>(extraServices.size() + 1);
            services.add(endpoint);
            services.addAll(extraServices);
            server = RaftGrpcServer.start(config.localId(), config.listeners(), services, config.connection());
        } else if (!extraServices.isEmpty()) {
            throw new IllegalArgumentException("extra services need a listener to be served on");
        }
        GrpcRaftTransport transport = new GrpcRaftTransport(config, sink, endpoint, server);
        inbound.transport = transport;
        return transport;
    }

    /** For {@code RaftDriver}: the transport is created once the driver's sink exists. */
    public static Function<InboundSink, Transport> factory(GrpcTransportConfig config,
                                                           List<BindableService> extraServices) {
        List<BindableService> extras = List.copyOf(extraServices);
        return sink -> start(config, sink, extras);
    }

    /** The addresses the server is bound on; empty for a client-only transport. */
    public List<InetSocketAddress> boundAddresses() {
        return server == null ? List.of() : server.boundAddresses();
    }

    /** Inbound calls delivered to the sink and neither answered nor cancelled yet. */
    public int pendingInboundCalls() {
        return endpoint.pendingCalls();
    }

    @Override
    public void send(RaftMessage message) {
        if (closed) {
            return;
        }
        keepPeersConnected(System.nanoTime());
        if (message instanceof RaftRequest request) {
            sendRequest(request);
        } else if (message instanceof RaftResponse response) {
            endpoint.answer(response.correlationId(), response.payload() instanceof DescribeQuorumResponse describe
                    ? withPeerEndpoints(describe) : response.payload());
        } else {
            Invariants.check(false, "a transport sends requests and responses, not %s", message);
        }
    }

    private void sendRequest(RaftRequest request) {
        int peerId = request.destinationId();
        Invariants.check(peerId != config.localId(), "node %d sent a request to itself: %s", peerId, request);
        ManagedChannel channel = channelFor(peerId);
        if (channel == null) {
            if (!closed) {
                LOG.warn("{}no address for node {}; {} not sent", logPrefix, peerId, describe(request.payload()));
                sink.deliver(new RequestFailure(peerId, request.correlationId(), RequestFailure.Reason.UNREACHABLE));
            }
            return;
        }
        Message payload = request.payload();
        if (payload instanceof VoteRequest vote) {
            call(channel, RaftServiceGrpc.getVoteMethod(), vote, request, 0);
        } else if (payload instanceof BeginQuorumEpochRequest begin) {
            call(channel, RaftServiceGrpc.getBeginQuorumEpochMethod(), begin, request, 0);
        } else if (payload instanceof EndQuorumEpochRequest end) {
            call(channel, RaftServiceGrpc.getEndQuorumEpochMethod(), end, request, 0);
        } else if (payload instanceof FetchRequest fetch) {
            call(channel, FETCH, fetch, request, fetch.getMaxWaitMs());
        } else if (payload instanceof FetchSnapshotRequest fetchSnapshot) {
            call(channel, FETCH_SNAPSHOT, fetchSnapshot, request, 0);
        } else if (payload instanceof DescribeQuorumRequest describe) {
            call(channel, RaftServiceGrpc.getDescribeQuorumMethod(), describe, request, 0);
        } else if (payload instanceof UpdateVoterRequest updateVoter) {
            call(channel, RaftServiceGrpc.getUpdateVoterMethod(), updateVoter, request, 0);
        } else {
            Invariants.check(false, "not a Raft request payload: %s", describe(payload));
        }
    }

    private <Q extends Message, R extends Message> void call(ManagedChannel channel, MethodDescriptor<Q, R> method,
                                                             Q payload, RaftRequest request, long extraWaitMs) {
        long timeoutMs = config.requestTimeoutMs() + extraWaitMs;
        ClientCall<Q, R> call = channel.newCall(method,
                CallOptions.DEFAULT.withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS));
        ClientCalls.asyncUnaryCall(call, payload, new AnswerObserver<>(request));
    }

    /** The core knows no addresses: the transport adds where it reaches each peer. */
    private DescribeQuorumResponse withPeerEndpoints(DescribeQuorumResponse response) {
        DescribeQuorumResponse.Builder builder = response.toBuilder().clearNodes();
        Map<Integer, InetSocketAddress> peers = new TreeMap<>(config.peers());
        synchronized (channels) {
            peers.putAll(learnedPeers);
        }
        peers.forEach((id, address) -> builder.addNodes(NodeEndpoint.newBuilder().setNodeId(id)
                .setHost(address.getHostString()).setPort(address.getPort())));
        return builder.build();
    }

    /** Passes inbound messages on, noting which peers just proved to be up. */
    private static final class InboundTap {
        private final InboundSink sink;
        private volatile GrpcRaftTransport transport;

        InboundTap(InboundSink sink) {
            this.sink = sink;
        }

        void deliver(RaftMessage message) {
            GrpcRaftTransport owner = transport;
            if (owner != null && message instanceof RaftRequest request && request.sourceId() >= 0) {
                owner.onPeerHeardFrom(request.sourceId());
            }
            sink.deliver(message);
        }
    }

    private void onPeerHeardFrom(int peerId) {
        PeerChannel peer;
        synchronized (channels) {
            peer = channels.get(peerId);
        }
        if (peer != null) {
            peer.onPeerHeardFrom(System.nanoTime());
        }
    }

    /** Turns the outcome of one outbound call into exactly one inbound message. */
    private final class AnswerObserver<R extends Message> implements StreamObserver<R> {
        private final RaftRequest request;

        AnswerObserver(RaftRequest request) {
            this.request = request;
        }

        @Override
        public void onNext(R answer) {
            if (!closed) {
                sink.deliver(new RaftResponse(request.destinationId(), config.localId(), request.correlationId(), answer));
            }
        }

        @Override
        public void onError(Throwable error) {
            Status status = Status.fromThrowable(error);
            RequestFailure.Reason reason = status.getCode() == Status.Code.UNAVAILABLE
                    ? RequestFailure.Reason.UNREACHABLE
                    : RequestFailure.Reason.TIMEOUT;
            if (!closed) {
                if (LOG.isDebugEnabled()) {
                    LOG.debug("{}{} to node {} failed ({}): {}", logPrefix, describe(request.payload()),
                            request.destinationId(), reason, status);
                }
                sink.deliver(new RequestFailure(request.destinationId(), request.correlationId(), reason));
            }
        }

        @Override
        public void onCompleted() {
            // Unary: onNext already delivered the answer.
        }
    }

    /**
     * Keeps a connection to every peer, not only to those this node calls: a follower
     * otherwise never connects to the other followers, and its first pre-vote after losing
     * the leader waited for the handshake. Runs on sends, at most once per initial reconnect
     * backoff, so it costs nothing per message.
     */
    private void keepPeersConnected(long nowNanos) {
        if (nowNanos - nextPeerCheckNanos < 0) {
            return;
        }
        nextPeerCheckNanos = nowNanos + TimeUnit.MILLISECONDS.toNanos(config.connection().reconnectBackoffInitialMs());
        for (int peerId : peerIds()) {
            PeerChannel peer = peerChannel(peerId, nowNanos);
            if (peer != null) {
                peer.keepConnected(nowNanos);
            }
        }
    }

    /**
     * The voter set in the log names where each voter listens now (KIP-853: a voter whose
     * listener moved updates its entry itself), so its address wins over the configured one; a
     * peer whose address changed gets a new channel, and calls still on the old one fail.
     */
    @Override
    public void learnPeers(Map<Integer, InetSocketAddress> addresses) {
        List<PeerChannel> moved = new ArrayList<>();
        synchronized (channels) {
            addresses.forEach((id, address) -> {
                if (id == config.localId() || address.equals(addressOf(id))) {
                    return;
                }
                InetSocketAddress before = addressOf(id);
                learnedPeers.put(id, address);
                PeerChannel old = channels.remove(id);
                if (old != null) {
                    moved.add(old);
                }
                LOG.info("{}node {} is a voter at {}, as the voter set in the log says{}", logPrefix, id, address,
                        before == null ? "" : " (it was reached at " + before + ")");
            });
        }
        moved.forEach(PeerChannel::shutdownNow);
    }

    /** Where peer {@code id} is reached: as the voter set in the log says, else as configured; null if neither. Under channels' lock. */
    private InetSocketAddress addressOf(int id) {
        return learnedPeers.getOrDefault(id, config.peers().get(id));
    }

    /** Every peer with an address: the configured ones and those learned from the log. */
    private List<Integer> peerIds() {
        synchronized (channels) {
            TreeSet<Integer> ids = new TreeSet<>(config.peers().keySet());
            ids.addAll(learnedPeers.keySet());
            return new ArrayList<>(ids);
        }
    }

    /** The channel to call the peer on; null if the peer has no address or we are closed. */
    private ManagedChannel channelFor(int peerId) {
        long nowNanos = System.nanoTime();
        PeerChannel peer = peerChannel(peerId, nowNanos);
        return peer == null ? null : peer.beforeCall(nowNanos);
    }

    /** The peer's channel, created on first use; null if the peer has no address or we are closed. */
    private PeerChannel peerChannel(int peerId, long nowNanos) {
        synchronized (channels) {
            if (closed) {
                return null;
            }
            PeerChannel peer = channels.get(peerId);
            if (peer == null) {
                InetSocketAddress address = addressOf(peerId);
                if (address == null) {
                    return null;
                }
                peer = new PeerChannel(address, config.connection(), nowNanos);
                channels.put(peerId, peer);
            }
            return peer;
        }
    }

    /** Stops the server (cancelling parked inbound calls) and every channel; waits a bounded time. */
    @Override
    public void close() {
        List<PeerChannel> toClose;
        synchronized (channels) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(channels.values());
            channels.clear();
        }
        if (server != null) {
            server.close(endpoint::failPendingCalls);
        }
        toClose.forEach(PeerChannel::shutdownNow);
        try {
            for (PeerChannel peer : toClose) {
                if (!peer.awaitTermination(TERMINATION_WAIT_MS)) {
                    LOG.warn("{}a peer channel did not terminate within {} ms", logPrefix, TERMINATION_WAIT_MS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("{}Raft transport closed", logPrefix);
    }

    /**
     * The message's name, from its generated class: asking for its protobuf descriptor instead
     * would build every descriptor of the proto files the first time, some 200 ms of class
     * loading on the Netty thread, which is where a lost leader's first failed fetch is logged.
     */
    static String describe(Message payload) {
        return payload.getClass().getSimpleName();
    }
}

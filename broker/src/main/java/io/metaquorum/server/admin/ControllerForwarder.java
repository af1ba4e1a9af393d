package io.metaquorum.server.admin;

import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.metaquorum.node.admin.AdminMethod;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.Forwarding;
import io.metaquorum.node.trace.RequestTrace;
import io.metaquorum.security.grpc.ForwardedIdentity;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a request this node cannot serve (it is not the active controller) to the controller
 * voter that is, and hands back its answer; the voter's address is the configured one or the
 * one the voter set in the log names ({@link ControllerAddresses}). One channel per voter, plaintext or TLS as the
 * node's own listener, made on first use; every forwarded call has a deadline and carries the
 * {@link ForwardedCalls} mark, so the receiver answers it itself or with NOT_CONTROLLER, and
 * never forwards it again. The client's principal and host go along ({@link ForwardedIdentity}).
 *
 * <p>Thread-safe: called from gRPC server threads; the answer arrives on a channel thread.
 */
public final class ControllerForwarder implements Forwarding, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerForwarder.class);
    /** The largest forwarded message either way, as the node's own listener allows. */
    private static final int MESSAGE_BYTES_MAX = 64 * 1024 * 1024;

    private final int localNodeId;
    private final ControllerAddresses controllerAddresses;
    private final long forwardTimeoutMs;
    private final String logPrefix;
    private final ChannelCredentials credentials;
    /** Each controller's channel and the address it was made for. Guarded by {@code this}. */
    private final Map<Integer, AddressedChannel> channels = new TreeMap<>();
    private boolean closed;

    /**
     * @param localNodeId         this node, written into the forwarded mark and never forwarded to
     * @param controllerAddresses the admin/lifecycle listener of every controller voter, by node id
     * @param forwardTimeoutMs    the deadline of one forwarded call
     */
    public ControllerForwarder(int localNodeId, Map<Integer, InetSocketAddress> controllerAddresses,
                               long forwardTimeoutMs) {
        this(localNodeId, ControllerAddresses.configured(controllerAddresses), forwardTimeoutMs,
                InsecureChannelCredentials.create());
    }

    /** @param credentials how this node connects to the controllers: as its own listener speaks */
    public ControllerForwarder(int localNodeId, ControllerAddresses controllerAddresses,
                               long forwardTimeoutMs, ChannelCredentials credentials) {
        if (forwardTimeoutMs <= 0) {
            throw new IllegalArgumentException("forwardTimeoutMs must be positive, not " + forwardTimeoutMs);
        }
        this.localNodeId = localNodeId;
        this.controllerAddresses = controllerAddresses;
        this.forwardTimeoutMs = forwardTimeoutMs;
        this.logPrefix = "[node " + localNodeId + "] ";
        this.credentials = credentials;
    }

    @Override
    public boolean canForwardTo(int controllerId) {
        return controllerId >= 0 && controllerId != localNodeId && controllerAddresses.addressOf(controllerId).isPresent();
    }

    /**
     * Forwards {@code request} to {@code controllerId}, with a deadline of the forward timeout
     * plus {@code waitMs} (what the request itself may wait on the controller, its
     * {@code timeout_ms}), and never past the deadline of the call being served; exactly one
     * of {@code onAnswer} (the controller's response) or {@code onFailure} (unreachable,
     * deadline passed, closed, or a controller this node has no address for) is called, once.
     */
    @Override
    public <Q, R> void forward(int controllerId, AdminMethod<Q, R> forwarded, Q request, long waitMs,
                               CallOrigin origin, Consumer<R> onAnswer, Consumer<Throwable> onFailure) {
        RequestTrace trace = origin.trace();
        MethodDescriptor<Q, R> method = GrpcMethods.descriptor(forwarded);
        ManagedChannel channel = canForwardTo(controllerId) ? channel(controllerId) : null;
        if (channel == null) {
            onFailure.accept(new IllegalStateException("no channel to controller " + controllerId));
            return;
        }
        ClientCall<Q, R> call = channel.newCall(method,
                CallOptions.DEFAULT.withDeadlineAfter(forwardTimeoutMs + waitMs, TimeUnit.MILLISECONDS));
        Metadata headers = new Metadata();
        headers.put(ForwardedCalls.HEADER, Integer.toString(localNodeId));
        ForwardedIdentity.write(origin.caller(), headers);
        AclOffsetHeader.write(origin.aclOffset(), headers);
        if (trace.isOn()) {
            headers.put(TracedCalls.HEADER, "1");
        }
        ClientCalls.asyncUnaryCall(new MarkedCall<>(call, headers, trace), request, new StreamObserver<>() {
            private R answer;

            @Override
            public void onNext(R value) {
                answer = value;
            }

            @Override
            public void onError(Throwable t) {
                trace.mark(RequestTrace.Stage.FORWARD_ANSWERED);
                LOG.debug("{}forwarding {} to controller {} failed: {}", logPrefix, method.getBareMethodName(),
                        controllerId, t.toString());
                onFailure.accept(t);
            }

            @Override
            public void onCompleted() {
                trace.mark(RequestTrace.Stage.FORWARD_ANSWERED);
                onAnswer.accept(answer);
            }
        });
    }

    /** The channel to {@code controllerId} at its address now; a channel to an address it left is closed. */
    private synchronized ManagedChannel channel(int controllerId) {
        Optional<InetSocketAddress> address = controllerAddresses.addressOf(controllerId);
        if (closed || address.isEmpty()) {
            return null;
        }
        AddressedChannel current = channels.get(controllerId);
        if (current != null && current.address().equals(address.get())) {
            return current.channel();
        }
        if (current != null) {
            current.channel().shutdown();
        }
        ManagedChannel channel = NettyChannelBuilder.forAddress(address.get(), credentials)
                // The answer is only handed to the waiting server call: no need for a thread of its own.
                .directExecutor()
                .disableRetry()
                .maxInboundMessageSize(MESSAGE_BYTES_MAX)
                .build();
        channels.put(controllerId, new AddressedChannel(address.get(), channel));
        return channel;
    }

    private record AddressedChannel(InetSocketAddress address, ManagedChannel channel) {
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (AddressedChannel addressed : channels.values()) {
            addressed.channel().shutdownNow();
        }
        channels.clear();
    }

    /**
     * A call that sends {@code extra} headers along with the ones the stub sets, and adds the
     * controller's trace trailer, if any, to {@code trace} before the answer is handed on.
     */
    private static final class MarkedCall<Q, R> extends ForwardingClientCall.SimpleForwardingClientCall<Q, R> {
        private final Metadata extra;
        private final RequestTrace trace;

        MarkedCall(ClientCall<Q, R> delegate, Metadata extra, RequestTrace trace) {
            super(delegate);
            this.extra = extra;
            this.trace = trace;
        }

        @Override
        public void start(Listener<R> responseListener, Metadata headers) {
            headers.merge(extra);
            Listener<R> listener = !trace.isOn() ? responseListener
                    : new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(responseListener) {
                        @Override
                        public void onClose(Status status, Metadata trailers) {
                            String remote = trailers.get(TracedCalls.HEADER);
                            if (remote != null) {
                                trace.addRemoteHop(remote);
                            }
                            super.onClose(status, trailers);
                        }
                    };
            super.start(listener, headers);
        }
    }
}

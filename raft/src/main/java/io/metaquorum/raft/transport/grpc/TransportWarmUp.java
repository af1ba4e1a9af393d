package io.metaquorum.raft.transport.grpc;

import com.google.protobuf.Message;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.VoteRequest;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Calls every Raft RPC once on this node's own listener, through a channel built like the
 * peers' ones, so that the gRPC, Netty and protobuf code of each call is loaded and linked
 * when the node starts rather than in the middle of a failover.
 *
 * <p>Why: a node restarted a moment ago has served no inbound connection yet. The first
 * EndQuorumEpoch or Vote it received used to spend 60-80 ms loading classes on the Netty
 * thread (seen in JFR recordings of SIGTERM handoffs), which is most of the handoff budget.
 *
 * <p>Each request is the empty message, which the edge check refuses with INVALID_REQUEST
 * before anything reaches the core: the warm-up changes no state and sends nothing to peers.
 */
public final class TransportWarmUp {
    /** How many RPCs {@link #run} makes: one per method of the Raft service. */
    public static final int RPC_COUNT = 6;

    private TransportWarmUp() {
    }

    /**
     * Runs the six calls, each with a deadline of {@code timeoutMs}; returns how many were
     * answered (a failure only means that path stays cold, so it is counted, not thrown).
     */
    public static int run(InetSocketAddress self, GrpcConnectionSettings settings, long timeoutMs) {
        PeerChannel peer = new PeerChannel(self, settings, System.nanoTime());
        try {
            ManagedChannel channel = peer.beforeCall(System.nanoTime());
            int answered = 0;
            answered += call(channel, RaftServiceGrpc.getVoteMethod(), VoteRequest.getDefaultInstance(), timeoutMs);
            answered += call(channel, RaftServiceGrpc.getBeginQuorumEpochMethod(),
                    BeginQuorumEpochRequest.getDefaultInstance(), timeoutMs);
            answered += call(channel, RaftServiceGrpc.getEndQuorumEpochMethod(),
                    EndQuorumEpochRequest.getDefaultInstance(), timeoutMs);
            answered += call(channel, GrpcRaftTransport.FETCH, FetchRequest.getDefaultInstance(), timeoutMs);
            answered += call(channel, GrpcRaftTransport.FETCH_SNAPSHOT, FetchSnapshotRequest.getDefaultInstance(),
                    timeoutMs);
            answered += call(channel, RaftServiceGrpc.getDescribeQuorumMethod(),
                    DescribeQuorumRequest.getDefaultInstance(), timeoutMs);
            return answered;
        } finally {
            peer.shutdownNow();
        }
    }

    private static <Q extends Message, R extends Message> int call(ManagedChannel channel,
                                                                  MethodDescriptor<Q, R> method, Q request,
                                                                  long timeoutMs) {
        try {
            ClientCalls.blockingUnaryCall(channel, method,
                    CallOptions.DEFAULT.withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS), request);
            return 1;
        } catch (StatusRuntimeException e) {
            return 0;
        }
    }
}

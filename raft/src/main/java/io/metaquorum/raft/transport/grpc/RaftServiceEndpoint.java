package io.metaquorum.raft.transport.grpc;

import com.google.protobuf.Message;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.EndQuorumEpochResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.transport.Transport.InboundSink;
import io.metaquorum.raft.transport.grpc.RequestShapeCheck.Rejection;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of the Raft RPCs: checks each request's shape at the edge
 * ({@link RequestShapeCheck}; a bad one is answered at once with its error code), stashes
 * the call under a new correlation id and hands a {@link RaftRequest} to the sink. The
 * driver's answer comes back through {@link #answer}.
 *
 * <p>The {@code sourceId} of the delivered request is the sender as each RPC names it
 * (Kafka's meaning of the fields; the top-level {@code voter_id} of Vote and
 * BeginQuorumEpoch is the receiving voter, not the sender):
 * <pre>
 *   Vote              topics[0].partitions[0].replica_id   (the candidate or prospective)
 *   BeginQuorumEpoch  topics[0].partitions[0].leader_id
 *   EndQuorumEpoch    topics[0].partitions[0].leader_id    (the resigning leader)
 *   Fetch             replica_id                           (-1: an anonymous observer)
 *   FetchSnapshot     replica_id
 *   DescribeQuorum    RaftRequest.CLIENT
 *   AddVoter          RaftRequest.CLIENT
 *   RemoveVoter       RaftRequest.CLIENT
 *   UpdateVoter       voter_id                             (the voter whose listener moved)
 * </pre>
 *
 * <p>Threading: service methods run on gRPC server threads and never block (a map insert
 * and a queue offer); {@link #answer} runs on the driver thread.
 */
public final class RaftServiceEndpoint extends RaftServiceGrpc.RaftServiceImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(RaftServiceEndpoint.class);

    private final int localId;
    private final InboundSink sink;
    private final PendingServerCalls pending;
    private final String logPrefix;

    public RaftServiceEndpoint(int localId, int pendingCallsMax, InboundSink sink) {
        this.localId = localId;
        this.sink = sink;
        this.logPrefix = "[node " + localId + "] ";
        this.pending = new PendingServerCalls(pendingCallsMax, logPrefix);
    }

    /** Answers the inbound call stashed under {@code correlationId}; dropped if it is gone. */
    public void answer(long correlationId, Message payload) {
        pending.complete(correlationId, payload);
    }

    /** Fails every waiting call with UNAVAILABLE: this node is going away. */
    public void failPendingCalls() {
        pending.failAll(Status.UNAVAILABLE.withDescription("node " + localId + " is shutting down"));
    }

    /** Inbound calls delivered and not yet answered or cancelled. */
    public int pendingCalls() {
        return pending.size();
    }

    @Override
    public void vote(VoteRequest request, StreamObserver<VoteResponse> observer) {
        accept(request, RequestShapeCheck.check(request), VoteResponse.class,
                code -> VoteResponse.newBuilder().setErrorCode(code).build(), observer,
                () -> request.getTopics(0).getPartitions(0).getReplicaId());
    }

    @Override
    public void beginQuorumEpoch(BeginQuorumEpochRequest request, StreamObserver<BeginQuorumEpochResponse> observer) {
        accept(request, RequestShapeCheck.check(request), BeginQuorumEpochResponse.class,
                code -> BeginQuorumEpochResponse.newBuilder().setErrorCode(code).build(), observer,
                () -> request.getTopics(0).getPartitions(0).getLeaderId());
    }

    @Override
    public void endQuorumEpoch(EndQuorumEpochRequest request, StreamObserver<EndQuorumEpochResponse> observer) {
        accept(request, RequestShapeCheck.check(request), EndQuorumEpochResponse.class,
                code -> EndQuorumEpochResponse.newBuilder().setErrorCode(code).build(), observer,
                () -> request.getTopics(0).getPartitions(0).getLeaderId());
    }

    @Override
    public void fetch(FetchRequest request, StreamObserver<FetchResponse> observer) {
        accept(request, RequestShapeCheck.check(request), FetchResponse.class,
                code -> FetchResponse.newBuilder().setErrorCode(code).build(), observer, request::getReplicaId);
    }

    @Override
    public void fetchSnapshot(FetchSnapshotRequest request, StreamObserver<FetchSnapshotResponse> observer) {
        accept(request, RequestShapeCheck.check(request), FetchSnapshotResponse.class,
                code -> FetchSnapshotResponse.newBuilder().setErrorCode(code).build(), observer,
                request::getReplicaId);
    }

    @Override
    public void describeQuorum(DescribeQuorumRequest request, StreamObserver<DescribeQuorumResponse> observer) {
        accept(request, RequestShapeCheck.check(request), DescribeQuorumResponse.class,
                code -> DescribeQuorumResponse.newBuilder().setErrorCode(code).build(), observer,
                () -> RaftRequest.CLIENT);
    }

    @Override
    public void addVoter(AddVoterRequest request, StreamObserver<AddVoterResponse> observer) {
        Optional<Rejection> rejection = RequestShapeCheck.check(request);
        accept(request, rejection, AddVoterResponse.class, code -> AddVoterResponse.newBuilder().setErrorCode(code)
                .setErrorMessage(rejection.map(Rejection::reason).orElse("")).build(), observer,
                () -> RaftRequest.CLIENT);
    }

    @Override
    public void removeVoter(RemoveVoterRequest request, StreamObserver<RemoveVoterResponse> observer) {
        Optional<Rejection> rejection = RequestShapeCheck.check(request);
        accept(request, rejection, RemoveVoterResponse.class, code -> RemoveVoterResponse.newBuilder()
                .setErrorCode(code).setErrorMessage(rejection.map(Rejection::reason).orElse("")).build(), observer,
                () -> RaftRequest.CLIENT);
    }

    @Override
    public void updateVoter(UpdateVoterRequest request, StreamObserver<UpdateVoterResponse> observer) {
        Optional<Rejection> rejection = RequestShapeCheck.check(request);
        accept(request, rejection, UpdateVoterResponse.class, code -> UpdateVoterResponse.newBuilder()
                .setErrorCode(code).setErrorMessage(rejection.map(Rejection::reason).orElse("")).build(), observer,
                request::getVoterId);
    }

    /**
     * The one path of every RPC. {@code sourceId} is read only after the shape check passed,
     * since it indexes into topics and partitions.
     */
    private <R extends Message> void accept(Message request, Optional<Rejection> rejection, Class<R> responseType,
                                            Function<ErrorCode, R> errorResponse, StreamObserver<R> observer,
                                            IntSupplier sourceId) {
        if (rejection.isPresent()) {
            LOG.debug("{}refusing a {} at the edge with {}: {}", logPrefix, GrpcRaftTransport.describe(request),
                    rejection.get().errorCode(), rejection.get().reason());
            observer.onNext(errorResponse.apply(rejection.get().errorCode()));
            observer.onCompleted();
            return;
        }
        ServerCallStreamObserver<R> call = (ServerCallStreamObserver<R>) observer;
        long correlationId = pending.register(call, responseType);
        if (correlationId < 0) {
            observer.onError(Status.RESOURCE_EXHAUSTED
                    .withDescription("node " + localId + " has too many Raft requests waiting for an answer")
                    .asRuntimeException());
            return;
        }
        sink.deliver(new RaftRequest(sourceId.getAsInt(), localId, correlationId, request));
    }
}

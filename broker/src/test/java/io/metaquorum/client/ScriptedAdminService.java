package io.metaquorum.client;

import com.google.protobuf.Message;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResponse;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.server.admin.AclOffsetHeader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A test double of the node's AdminService for the client's tests: it answers each call with
 * the next scripted answer (a response message, or a gRPC status to fail the call with) and
 * records the requests it got (and, served through {@link #recordingHeaders}, their ACL offset
 * headers). An unscripted call fails with INTERNAL.
 */
public final class ScriptedAdminService extends AdminServiceGrpc.AdminServiceImplBase {
    private final Deque<Object> answers = new ArrayDeque<>();
    private final List<Message> requests = new ArrayList<>();
    private final List<String> aclOffsets = new ArrayList<>();

    public synchronized ScriptedAdminService answer(Object... scripted) {
        answers.addAll(List.of(scripted));
        return this;
    }

    public synchronized List<Message> requests() {
        return List.copyOf(requests);
    }

    /** The {@code mq-acl-offset} header of each call, in order; null where a call had none. */
    public synchronized List<String> aclOffsets() {
        return new ArrayList<>(aclOffsets);
    }

    /** This service with the headers of its calls recorded (see {@link #aclOffsets}). */
    public ServerServiceDefinition recordingHeaders() {
        return ServerInterceptors.intercept(this, new ServerInterceptor() {
            @Override
            public <Q, P> ServerCall.Listener<Q> interceptCall(ServerCall<Q, P> call, Metadata headers,
                    ServerCallHandler<Q, P> next) {
                synchronized (ScriptedAdminService.this) {
                    aclOffsets.add(headers.get(AclOffsetHeader.HEADER));
                }
                return next.startCall(call, headers);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private synchronized <P> void respond(Message request, StreamObserver<P> observer) {
        requests.add(request);
        Object next = answers.poll();
        if (next == null) {
            observer.onError(Status.INTERNAL.withDescription("unscripted call " + request).asRuntimeException());
        } else if (next instanceof Status status) {
            observer.onError(status.asRuntimeException());
        } else {
            observer.onNext((P) next);
            observer.onCompleted();
        }
    }

    @Override
    public void createTopics(CreateTopicsRequest request, StreamObserver<CreateTopicsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void deleteTopics(DeleteTopicsRequest request, StreamObserver<DeleteTopicsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void createPartitions(CreatePartitionsRequest request, StreamObserver<CreatePartitionsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void listTopics(ListTopicsRequest request, StreamObserver<ListTopicsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void describeTopics(DescribeTopicsRequest request, StreamObserver<DescribeTopicsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void describeConfigs(DescribeConfigsRequest request, StreamObserver<DescribeConfigsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void incrementalAlterConfigs(IncrementalAlterConfigsRequest request,
            StreamObserver<IncrementalAlterConfigsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void describeCluster(DescribeClusterRequest request, StreamObserver<DescribeClusterResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void createAcls(CreateAclsRequest request, StreamObserver<CreateAclsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void describeAcls(DescribeAclsRequest request, StreamObserver<DescribeAclsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void deleteAcls(DeleteAclsRequest request, StreamObserver<DeleteAclsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void alterUserScramCredentials(io.metaquorum.protocol.AlterUserScramCredentialsRequest request,
            StreamObserver<io.metaquorum.protocol.AlterUserScramCredentialsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void describeUserScramCredentials(io.metaquorum.protocol.DescribeUserScramCredentialsRequest request,
            StreamObserver<io.metaquorum.protocol.DescribeUserScramCredentialsResponse> observer) {
        respond(request, observer);
    }

    @Override
    public void explainAcl(ExplainAclRequest request, StreamObserver<ExplainAclResponse> observer) {
        respond(request, observer);
    }
}

package io.metaquorum.server.admin;

import io.grpc.BindableService;
import io.grpc.stub.StreamObserver;
import io.metaquorum.common.time.Time;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
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
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsResponse;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;

/**
 * The admin API on a node's gRPC listener: each call handed to the node's
 * {@link AdminRequests} with the origin its headers carry ({@link ForwardedCalls}), and the
 * answer sent back as the call's one response; a call that asks for a trace ({@link TracedCalls})
 * has its stages marked.
 *
 * <p>Register {@link #service()}, not the endpoint itself: it adds the interceptor that
 * recognises forwarded calls.
 */
public final class AdminServiceEndpoint extends AdminServiceGrpc.AdminServiceImplBase {
    private final AdminRequests requests;
    private final Time time;
    private final int nodeId;

    /** @param time the clock request traces read ({@link TracedCalls}) */
    public AdminServiceEndpoint(AdminRequests requests, Time time, int nodeId) {
        this.requests = requests;
        this.time = time;
        this.nodeId = nodeId;
    }

    /** What to register on the node's gRPC server ({@link ForwardedCalls#bind}, {@link TracedCalls#bind}). */
    public BindableService service() {
        return TracedCalls.bind(ForwardedCalls.bind(this), time, nodeId);
    }

    private static CallOrigin origin() {
        return TracedCalls.traced(ForwardedCalls.origin());
    }

    @Override
    public void createTopics(CreateTopicsRequest request, StreamObserver<CreateTopicsResponse> observer) {
        requests.createTopics(request, origin(), answer -> reply(observer, answer));
    }

    @Override
    public void deleteTopics(DeleteTopicsRequest request, StreamObserver<DeleteTopicsResponse> observer) {
        requests.deleteTopics(request, origin(), answer -> reply(observer, answer));
    }

    @Override
    public void createPartitions(CreatePartitionsRequest request, StreamObserver<CreatePartitionsResponse> observer) {
        requests.createPartitions(request, origin(), answer -> reply(observer, answer));
    }

    @Override
    public void incrementalAlterConfigs(IncrementalAlterConfigsRequest request,
                                        StreamObserver<IncrementalAlterConfigsResponse> observer) {
        requests.incrementalAlterConfigs(request, origin(), answer -> reply(observer, answer));
    }

    @Override
    public void listTopics(ListTopicsRequest request, StreamObserver<ListTopicsResponse> observer) {
        reply(observer, requests.listTopics(request, origin()));
    }

    @Override
    public void describeTopics(DescribeTopicsRequest request, StreamObserver<DescribeTopicsResponse> observer) {
        reply(observer, requests.describeTopics(request, origin()));
    }

    @Override
    public void describeConfigs(DescribeConfigsRequest request, StreamObserver<DescribeConfigsResponse> observer) {
        reply(observer, requests.describeConfigs(request, origin()));
    }

    @Override
    public void describeCluster(DescribeClusterRequest request, StreamObserver<DescribeClusterResponse> observer) {
        reply(observer, requests.describeCluster(request, origin()));
    }

    @Override
    public void createAcls(CreateAclsRequest request, StreamObserver<CreateAclsResponse> observer) {
        requests.createAcls(request, origin(), answer -> reply(observer, answer));
    }

    @Override
    public void deleteAcls(DeleteAclsRequest request, StreamObserver<DeleteAclsResponse> observer) {
        requests.deleteAcls(request, origin(), answer -> reply(observer, answer));
    }

    @Override
    public void describeAcls(DescribeAclsRequest request, StreamObserver<DescribeAclsResponse> observer) {
        reply(observer, requests.describeAcls(request, origin()));
    }

    @Override
    public void explainAcl(ExplainAclRequest request, StreamObserver<ExplainAclResponse> observer) {
        reply(observer, requests.explainAcl(request, origin()));
    }

    @Override
    public void alterUserScramCredentials(AlterUserScramCredentialsRequest request,
                                          StreamObserver<AlterUserScramCredentialsResponse> observer) {
        requests.alterUserScramCredentials(request, origin(), answer -> reply(observer, answer));
    }

    @Override
    public void describeUserScramCredentials(DescribeUserScramCredentialsRequest request,
                                             StreamObserver<DescribeUserScramCredentialsResponse> observer) {
        reply(observer, requests.describeUserScramCredentials(request, origin()));
    }

    static <R> void reply(StreamObserver<R> observer, R response) {
        observer.onNext(response);
        observer.onCompleted();
    }
}

package io.metaquorum.server.admin;

import io.grpc.BindableService;
import io.grpc.stub.StreamObserver;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResponse;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;

/**
 * The admin API on a node's gRPC listener: each call handed to the node's
 * {@link AdminRequests} with the origin its headers carry ({@link ForwardedCalls}), and the
 * answer sent back as the call's one response.
 *
 * <p>Register {@link #service()}, not the endpoint itself: it adds the interceptor that
 * recognises forwarded calls.
 */
public final class AdminServiceEndpoint extends AdminServiceGrpc.AdminServiceImplBase {
    private final AdminRequests requests;

    public AdminServiceEndpoint(AdminRequests requests) {
        this.requests = requests;
    }

    /** What to register on the node's gRPC server ({@link ForwardedCalls#bind}). */
    public BindableService service() {
        return ForwardedCalls.bind(this);
    }

    @Override
    public void createTopics(CreateTopicsRequest request, StreamObserver<CreateTopicsResponse> observer) {
        requests.createTopics(request, ForwardedCalls.origin(), answer -> reply(observer, answer));
    }

    @Override
    public void deleteTopics(DeleteTopicsRequest request, StreamObserver<DeleteTopicsResponse> observer) {
        requests.deleteTopics(request, ForwardedCalls.origin(), answer -> reply(observer, answer));
    }

    @Override
    public void createPartitions(CreatePartitionsRequest request, StreamObserver<CreatePartitionsResponse> observer) {
        requests.createPartitions(request, ForwardedCalls.origin(), answer -> reply(observer, answer));
    }

    @Override
    public void incrementalAlterConfigs(IncrementalAlterConfigsRequest request,
                                        StreamObserver<IncrementalAlterConfigsResponse> observer) {
        requests.incrementalAlterConfigs(request, ForwardedCalls.origin(), answer -> reply(observer, answer));
    }

    @Override
    public void listTopics(ListTopicsRequest request, StreamObserver<ListTopicsResponse> observer) {
        reply(observer, requests.listTopics(request));
    }

    @Override
    public void describeTopics(DescribeTopicsRequest request, StreamObserver<DescribeTopicsResponse> observer) {
        reply(observer, requests.describeTopics(request));
    }

    @Override
    public void describeConfigs(DescribeConfigsRequest request, StreamObserver<DescribeConfigsResponse> observer) {
        reply(observer, requests.describeConfigs(request));
    }

    @Override
    public void describeCluster(DescribeClusterRequest request, StreamObserver<DescribeClusterResponse> observer) {
        reply(observer, requests.describeCluster(request));
    }

    static <R> void reply(StreamObserver<R> observer, R response) {
        observer.onNext(response);
        observer.onCompleted();
    }
}

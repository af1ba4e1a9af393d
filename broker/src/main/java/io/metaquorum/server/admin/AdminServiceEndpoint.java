package io.metaquorum.server.admin;

import io.grpc.BindableService;
import io.grpc.stub.StreamObserver;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.AdminResponseHeader;
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
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.server.controller.ControllerGateway;
import java.util.Optional;

/**
 * The admin API ({@code admin.proto}) on a node's listener. Every request is first checked
 * at the edge ({@link RequestLimits}: a violation is a request-level INVALID_REQUEST naming
 * the field). Writes go through {@link ControllerCalls} (this node's active controller, or
 * forwarded, or NOT_CONTROLLER); their answer is built on the controller's thread. Reads are
 * answered on the calling thread from this node's committed image, with its offset.
 *
 * <p>Register {@link #service()}, not the endpoint itself: it adds the interceptor that
 * recognises forwarded calls.
 */
public final class AdminServiceEndpoint extends AdminServiceGrpc.AdminServiceImplBase {
    private final ControllerCalls calls;
    private final ControllerGateway gateway;
    private final String clusterId;

    /**
     * @param gateway   this node's controller and committed image
     * @param forwarder how to reach the active controller when this node is not it
     * @param clusterId the cluster id DescribeCluster reports
     */
    public AdminServiceEndpoint(ControllerGateway gateway, ControllerForwarder forwarder, String clusterId) {
        this.calls = new ControllerCalls(gateway, forwarder);
        this.gateway = gateway;
        this.clusterId = clusterId;
    }

    /** What to register on the node's gRPC server ({@link ForwardedCalls#bind}). */
    public BindableService service() {
        return ForwardedCalls.bind(this);
    }

    @Override
    public void createTopics(CreateTopicsRequest request, StreamObserver<CreateTopicsResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer, CreateTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(AdminServiceGrpc.getCreateTopicsMethod(), request, request.getTimeoutMs(), observer,
                sink -> (controller, nowMs) -> controller.createTopics(CreateTopicsConverter.toController(request),
                        request.getTimeoutMs(), nowMs,
                        response -> sink.complete(CreateTopicsConverter.toProto(response, controllerId()))),
                error -> CreateTopicsConverter.failed(request, error, controllerId()));
    }

    @Override
    public void deleteTopics(DeleteTopicsRequest request, StreamObserver<DeleteTopicsResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer, DeleteTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(AdminServiceGrpc.getDeleteTopicsMethod(), request, request.getTimeoutMs(), observer,
                sink -> (controller, nowMs) -> controller.deleteTopics(TopicWritesConverter.deleteNames(request),
                        TopicWritesConverter.deleteIds(request), request.getTimeoutMs(), nowMs,
                        results -> sink.complete(TopicWritesConverter.deletedToProto(results, controllerId()))),
                error -> TopicWritesConverter.failed(request, error, controllerId()));
    }

    @Override
    public void createPartitions(CreatePartitionsRequest request, StreamObserver<CreatePartitionsResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer,
                    CreatePartitionsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(AdminServiceGrpc.getCreatePartitionsMethod(), request, request.getTimeoutMs(), observer,
                sink -> (controller, nowMs) -> controller.createPartitions(
                        TopicWritesConverter.toController(request, controller.decisionImage()),
                        request.getValidateOnly(), request.getTimeoutMs(), nowMs,
                        results -> sink.complete(TopicWritesConverter.grownToProto(results, controllerId()))),
                error -> TopicWritesConverter.failed(request, error, controllerId()));
    }

    @Override
    public void incrementalAlterConfigs(IncrementalAlterConfigsRequest request,
                                        StreamObserver<IncrementalAlterConfigsResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer,
                    IncrementalAlterConfigsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(AdminServiceGrpc.getIncrementalAlterConfigsMethod(), request, 0, observer,
                sink -> (controller, nowMs) -> controller.incrementalAlterConfigs(
                        ConfigsConverter.toController(request), request.getValidateOnly(), nowMs,
                        results -> sink.complete(ConfigsConverter.toProto(results, controllerId()))),
                error -> ConfigsConverter.failed(request, error, controllerId()));
    }

    @Override
    public void listTopics(ListTopicsRequest request, StreamObserver<ListTopicsResponse> observer) {
        ControllerCalls.reply(observer, TopicReadsConverter.list(gateway.committedImage(), controllerId()));
    }

    @Override
    public void describeTopics(DescribeTopicsRequest request, StreamObserver<DescribeTopicsResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer, DescribeTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        ControllerCalls.reply(observer, TopicReadsConverter.describe(request, gateway.committedImage(),
                controllerId()));
    }

    @Override
    public void describeConfigs(DescribeConfigsRequest request, StreamObserver<DescribeConfigsResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer,
                    DescribeConfigsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        MetadataImage image = gateway.committedImage();
        ControllerCalls.reply(observer, ConfigsConverter.describe(request, image, controllerId()));
    }

    @Override
    public void describeCluster(DescribeClusterRequest request, StreamObserver<DescribeClusterResponse> observer) {
        ControllerCalls.reply(observer, TopicReadsConverter.cluster(gateway.committedImage(), clusterId,
                controllerId()));
    }

    private int controllerId() {
        return gateway.knownControllerId();
    }

    private AdminResponseHeader invalid(String message) {
        return ResponseHeaders.header(ApiError.of(ErrorCode.INVALID_REQUEST, message), controllerId(),
                ResponseHeaders.NO_OFFSET);
    }
}

package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.protocol.AdminResponseHeader;
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
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The admin API ({@code admin.proto}) of a node, independent of its transport. Every request
 * is first checked at the edge ({@link RequestLimits}: a violation is a request-level
 * INVALID_REQUEST naming the field). Writes go through {@link ControllerCalls} (this node's
 * active controller, or forwarded, or NOT_CONTROLLER); their answer is built on the
 * controller's thread. Reads are answered at once from this node's committed image, with its
 * offset. {@code reply} is called exactly once per request, maybe later.
 */
public final class AdminRequests {
    public static final AdminMethod<CreateTopicsRequest, CreateTopicsResponse> CREATE_TOPICS =
            new AdminMethod<>("CreateTopics", (handlers, origin, request, reply) ->
                    handlers.admin().createTopics(request, origin, reply));
    public static final AdminMethod<DeleteTopicsRequest, DeleteTopicsResponse> DELETE_TOPICS =
            new AdminMethod<>("DeleteTopics", (handlers, origin, request, reply) ->
                    handlers.admin().deleteTopics(request, origin, reply));
    public static final AdminMethod<CreatePartitionsRequest, CreatePartitionsResponse> CREATE_PARTITIONS =
            new AdminMethod<>("CreatePartitions", (handlers, origin, request, reply) ->
                    handlers.admin().createPartitions(request, origin, reply));
    public static final AdminMethod<IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse>
            INCREMENTAL_ALTER_CONFIGS = new AdminMethod<>("IncrementalAlterConfigs", (handlers, origin, request,
                    reply) -> handlers.admin().incrementalAlterConfigs(request, origin, reply));
    public static final AdminMethod<CreateAclsRequest, CreateAclsResponse> CREATE_ACLS =
            new AdminMethod<>("CreateAcls", (handlers, origin, request, reply) ->
                    handlers.admin().createAcls(request, origin, reply));
    public static final AdminMethod<DeleteAclsRequest, DeleteAclsResponse> DELETE_ACLS =
            new AdminMethod<>("DeleteAcls", (handlers, origin, request, reply) ->
                    handlers.admin().deleteAcls(request, origin, reply));

    private final ControllerCalls calls;
    private final String clusterId;

    /** @param clusterId the cluster id DescribeCluster reports */
    AdminRequests(ControllerCalls calls, String clusterId) {
        this.calls = calls;
        this.clusterId = clusterId;
    }

    public void createTopics(CreateTopicsRequest request, CallOrigin origin, Consumer<CreateTopicsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(CreateTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(CREATE_TOPICS, request, origin, request.getTimeoutMs(), reply,
                sink -> (controller, nowMs) -> controller.createTopics(CreateTopicsConverter.toController(request),
                        request.getTimeoutMs(), nowMs,
                        response -> sink.complete(CreateTopicsConverter.toProto(response, controllerId()))),
                error -> CreateTopicsConverter.failed(request, error, controllerId()));
    }

    public void deleteTopics(DeleteTopicsRequest request, CallOrigin origin, Consumer<DeleteTopicsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(DeleteTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(DELETE_TOPICS, request, origin, request.getTimeoutMs(), reply,
                sink -> (controller, nowMs) -> controller.deleteTopics(TopicWritesConverter.deleteNames(request),
                        TopicWritesConverter.deleteIds(request), request.getTimeoutMs(), nowMs,
                        results -> sink.complete(TopicWritesConverter.deletedToProto(results, controllerId()))),
                error -> TopicWritesConverter.failed(request, error, controllerId()));
    }

    public void createPartitions(CreatePartitionsRequest request, CallOrigin origin,
                                 Consumer<CreatePartitionsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(CreatePartitionsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(CREATE_PARTITIONS, request, origin, request.getTimeoutMs(), reply,
                sink -> (controller, nowMs) -> controller.createPartitions(
                        TopicWritesConverter.toController(request, controller.decisionImage()),
                        request.getValidateOnly(), request.getTimeoutMs(), nowMs,
                        results -> sink.complete(TopicWritesConverter.grownToProto(results, controllerId()))),
                error -> TopicWritesConverter.failed(request, error, controllerId()));
    }

    public void incrementalAlterConfigs(IncrementalAlterConfigsRequest request, CallOrigin origin,
                                        Consumer<IncrementalAlterConfigsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(IncrementalAlterConfigsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(INCREMENTAL_ALTER_CONFIGS, request, origin, 0, reply,
                sink -> (controller, nowMs) -> controller.incrementalAlterConfigs(
                        ConfigsConverter.toController(request), request.getValidateOnly(), nowMs,
                        results -> sink.complete(ConfigsConverter.toProto(results, controllerId()))),
                error -> ConfigsConverter.failed(request, error, controllerId()));
    }

    /** Answered once committed, with the offset of the commit (read your own writes at or past it). */
    public void createAcls(CreateAclsRequest request, CallOrigin origin, Consumer<CreateAclsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(AclsConverter.createFailed(request, ApiError.of(ErrorCode.INVALID_REQUEST, bad.get()),
                    controllerId()));
            return;
        }
        calls.write(CREATE_ACLS, request, origin, 0, reply,
                sink -> (controller, nowMs) -> controller.createAcls(AclsConverter.toBindings(request), nowMs,
                        result -> sink.complete(AclsConverter.createdToProto(result, controllerId()))),
                error -> AclsConverter.createFailed(request, error, controllerId()));
    }

    /** Answered once committed, with the offset of the commit; too many matches refuse it whole. */
    public void deleteAcls(DeleteAclsRequest request, CallOrigin origin, Consumer<DeleteAclsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(AclsConverter.deleteFailed(request, ApiError.of(ErrorCode.INVALID_REQUEST, bad.get()),
                    controllerId()));
            return;
        }
        calls.write(DELETE_ACLS, request, origin, 0, reply,
                sink -> (controller, nowMs) -> controller.deleteAcls(AclsConverter.toFilters(request), nowMs,
                        result -> sink.complete(AclsConverter.deletedToProto(result, controllerId()))),
                error -> AclsConverter.deleteFailed(request, error, controllerId()));
    }

    public DescribeAclsResponse describeAcls(DescribeAclsRequest request) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return DescribeAclsResponse.newBuilder().setHeader(invalid(bad.get())).build();
        }
        return AclsConverter.describe(request, calls.gateway().committedImage(), controllerId());
    }

    public ListTopicsResponse listTopics(ListTopicsRequest request) {
        return TopicReadsConverter.list(calls.gateway().committedImage(), controllerId());
    }

    public DescribeTopicsResponse describeTopics(DescribeTopicsRequest request) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return DescribeTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build();
        }
        return TopicReadsConverter.describe(request, calls.gateway().committedImage(), controllerId());
    }

    public DescribeConfigsResponse describeConfigs(DescribeConfigsRequest request) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return DescribeConfigsResponse.newBuilder().setHeader(invalid(bad.get())).build();
        }
        return ConfigsConverter.describe(request, calls.gateway().committedImage(), controllerId());
    }

    public DescribeClusterResponse describeCluster(DescribeClusterRequest request) {
        return TopicReadsConverter.cluster(calls.gateway().committedImage(), clusterId, controllerId());
    }

    private int controllerId() {
        return calls.gateway().knownControllerId();
    }

    private AdminResponseHeader invalid(String message) {
        return ResponseHeaders.header(ApiError.of(ErrorCode.INVALID_REQUEST, message), controllerId(),
                ResponseHeaders.NO_OFFSET);
    }
}

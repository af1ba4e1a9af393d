package io.metaquorum.node.admin;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.protocol.AdminResponseHeader;
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
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The admin API ({@code admin.proto}) of a node, independent of its transport. Every request
 * is first checked at the edge ({@link RequestLimits}: a violation is a request-level
 * INVALID_REQUEST naming the field). Writes go through {@link ControllerCalls} (this node's
 * active controller, or forwarded, or NOT_CONTROLLER); their answer is built on the
 * controller's thread. Reads are answered at once from this node's committed image, with its
 * offset. {@code reply} is called exactly once per request, maybe later.
 *
 * <p>With the authorizer on ({@link NodeAccess}), each RPC checks what
 * {@link io.metaquorum.node.access.RpcAccessTable} says, before it looks at what exists:
 * reads against the image they answer from, writes on the controller's thread against its
 * committed image ({@link ControllerCalls}, {@link AuthorizedWrites}).
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
    public static final AdminMethod<AlterUserScramCredentialsRequest, AlterUserScramCredentialsResponse>
            ALTER_USER_SCRAM_CREDENTIALS = new AdminMethod<>("AlterUserScramCredentials", (handlers, origin, request,
                    reply) -> handlers.admin().alterUserScramCredentials(request, origin, reply));

    /** The operations an ACL on the cluster can grant: what Kafka reports as a cluster's authorized operations. */
    public static final Set<AclOperation> CLUSTER_OPERATIONS = EnumSet.of(AclOperation.CREATE,
            AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE);

    /** The operations an ACL on a topic can grant: what Kafka reports as a topic's authorized operations. */
    public static final Set<AclOperation> TOPIC_OPERATIONS = EnumSet.of(AclOperation.READ, AclOperation.WRITE,
            AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER,
            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);

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
                (controller, nowMs, rights, sink) -> {
                    if (!rights.access().isEnabled()) {
                        controller.createTopics(CreateTopicsConverter.toController(request), request.getTimeoutMs(),
                                nowMs, response -> sink.complete(CreateTopicsConverter.toProto(response,
                                        controllerId())));
                        return;
                    }
                    BitSet denied = AuthorizedWrites.createTopics(request, rights);
                    CreateTopicsRequest allowed = denied.isEmpty() ? request
                            : AuthorizedWrites.allowed(request, denied);
                    Consumer<CreateTopicsResponse> merged = decided -> sink.complete(
                            AuthorizedWrites.merged(request, denied, decided, rights));
                    if (allowed.getTopicsCount() == 0) {
                        merged.accept(CreateTopicsResponse.newBuilder().setHeader(writeOk()).build());
                    } else {
                        controller.createTopics(CreateTopicsConverter.toController(allowed), request.getTimeoutMs(),
                                nowMs, response -> merged.accept(CreateTopicsConverter.toProto(response,
                                        controllerId())));
                    }
                },
                error -> CreateTopicsConverter.failed(request, error, controllerId()));
    }

    public void deleteTopics(DeleteTopicsRequest request, CallOrigin origin, Consumer<DeleteTopicsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(DeleteTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build());
            return;
        }
        calls.write(DELETE_TOPICS, request, origin, request.getTimeoutMs(), reply,
                (controller, nowMs, rights, sink) -> {
                    BitSet denied = AuthorizedWrites.deleteTopics(request, rights);
                    DeleteTopicsRequest allowed = denied.isEmpty() ? request
                            : AuthorizedWrites.allowed(request, denied);
                    Consumer<DeleteTopicsResponse> merged = denied.isEmpty() ? sink::complete
                            : decided -> sink.complete(AuthorizedWrites.merged(request, denied, decided, rights));
                    if (allowed.getTopicsCount() == 0) {
                        merged.accept(DeleteTopicsResponse.newBuilder().setHeader(writeOk()).build());
                        return;
                    }
                    controller.deleteTopics(TopicWritesConverter.deleteNames(allowed),
                            TopicWritesConverter.deleteIds(allowed), request.getTimeoutMs(), nowMs,
                            results -> merged.accept(TopicWritesConverter.deletedToProto(results, controllerId())));
                },
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
                (controller, nowMs, rights, sink) -> {
                    BitSet denied = AuthorizedWrites.createPartitions(request, rights);
                    CreatePartitionsRequest allowed = denied.isEmpty() ? request
                            : AuthorizedWrites.allowed(request, denied);
                    Consumer<CreatePartitionsResponse> merged = denied.isEmpty() ? sink::complete
                            : decided -> sink.complete(AuthorizedWrites.merged(request, denied, decided));
                    if (allowed.getTopicsCount() == 0) {
                        merged.accept(CreatePartitionsResponse.newBuilder().setHeader(writeOk()).build());
                        return;
                    }
                    controller.createPartitions(TopicWritesConverter.toController(allowed, controller.decisionImage()),
                            request.getValidateOnly(), request.getTimeoutMs(), nowMs,
                            results -> merged.accept(TopicWritesConverter.grownToProto(results, controllerId())));
                },
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
                (controller, nowMs, rights, sink) -> {
                    BitSet denied = AuthorizedWrites.alterConfigs(request, rights);
                    IncrementalAlterConfigsRequest allowed = denied.isEmpty() ? request
                            : AuthorizedWrites.allowed(request, denied);
                    Consumer<IncrementalAlterConfigsResponse> merged = denied.isEmpty() ? sink::complete
                            : decided -> sink.complete(AuthorizedWrites.merged(request, denied, decided));
                    if (allowed.getResourcesCount() == 0) {
                        merged.accept(IncrementalAlterConfigsResponse.newBuilder().setHeader(writeOk()).build());
                        return;
                    }
                    controller.incrementalAlterConfigs(ConfigsConverter.toController(allowed),
                            request.getValidateOnly(), nowMs,
                            results -> merged.accept(ConfigsConverter.toProto(results, controllerId())));
                },
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
                (controller, nowMs, rights, sink) -> {
                    if (!rights.allowsOnCluster(AclOperation.ALTER)) {
                        sink.complete(AclsConverter.createFailed(request, clusterDenied(), controllerId()));
                        return;
                    }
                    controller.createAcls(AclsConverter.toBindings(request), nowMs,
                            result -> sink.complete(AclsConverter.createdToProto(result, controllerId())));
                },
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
                (controller, nowMs, rights, sink) -> {
                    if (!rights.allowsOnCluster(AclOperation.ALTER)) {
                        sink.complete(AclsConverter.deleteFailed(request, clusterDenied(), controllerId()));
                        return;
                    }
                    controller.deleteAcls(AclsConverter.toFilters(request), nowMs,
                            result -> sink.complete(AclsConverter.deletedToProto(result, controllerId())));
                },
                error -> AclsConverter.deleteFailed(request, error, controllerId()));
    }

    /**
     * Needs ALTER on the cluster (else CLUSTER_AUTHORIZATION_FAILED for every user, as Kafka).
     * Answered once committed, with the offset of the commit.
     */
    public void alterUserScramCredentials(AlterUserScramCredentialsRequest request, CallOrigin origin,
                                          Consumer<AlterUserScramCredentialsResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(ScramConverter.alterFailed(request, ApiError.of(ErrorCode.INVALID_REQUEST, bad.get()),
                    controllerId()));
            return;
        }
        calls.write(ALTER_USER_SCRAM_CREDENTIALS, request, origin, 0, reply,
                (controller, nowMs, rights, sink) -> {
                    if (!rights.allowsOnCluster(AclOperation.ALTER)) {
                        sink.complete(ScramConverter.alterFailed(request, clusterDenied(), controllerId()));
                        return;
                    }
                    controller.alterScramCredentials(ScramConverter.deletions(request),
                            ScramConverter.upsertions(request), nowMs,
                            result -> sink.complete(ScramConverter.alteredToProto(result, controllerId())));
                },
                error -> ScramConverter.alterFailed(request, error, controllerId()));
    }

    /** Mechanisms and iterations (never salts or keys) from this node's image; needs DESCRIBE on the cluster. */
    public DescribeUserScramCredentialsResponse describeUserScramCredentials(
            DescribeUserScramCredentialsRequest request, CallOrigin origin) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return DescribeUserScramCredentialsResponse.newBuilder().setHeader(invalid(bad.get())).build();
        }
        RequestAccess rights = rights(origin);
        Optional<ApiError> refused = clusterCheck(rights, origin, AclOperation.DESCRIBE);
        if (refused.isPresent()) {
            return DescribeUserScramCredentialsResponse.newBuilder().setHeader(readFailed(refused.get(), rights))
                    .build();
        }
        return ScramConverter.describe(request, rights.image(), controllerId());
    }

    public DescribeAclsResponse describeAcls(DescribeAclsRequest request, CallOrigin origin) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return DescribeAclsResponse.newBuilder().setHeader(invalid(bad.get())).build();
        }
        RequestAccess rights = rights(origin);
        Optional<ApiError> refused = clusterCheck(rights, origin, AclOperation.DESCRIBE);
        if (refused.isPresent()) {
            return DescribeAclsResponse.newBuilder().setHeader(readFailed(refused.get(), rights)).build();
        }
        return AclsConverter.describe(request, rights.image(), controllerId());
    }

    /** Which rule decides one question, on this node's image and settings; needs DESCRIBE on the cluster. */
    public ExplainAclResponse explainAcl(ExplainAclRequest request, CallOrigin origin) {
        RequestAccess rights = rights(origin);
        Optional<ApiError> refused = clusterCheck(rights, origin, AclOperation.DESCRIBE);
        if (refused.isPresent()) {
            return ExplainAclResponse.newBuilder().setHeader(readFailed(refused.get(), rights)).build();
        }
        return AclExplanations.explain(request, calls.access(), rights.image(), controllerId());
    }

    public ListTopicsResponse listTopics(ListTopicsRequest request, CallOrigin origin) {
        RequestAccess rights = rights(origin);
        Optional<ApiError> refused = calls.access().admit(rights.image(), origin.caller(), origin.aclOffset());
        if (refused.isPresent()) {
            return ListTopicsResponse.newBuilder().setHeader(readFailed(refused.get(), rights)).build();
        }
        return TopicReadsConverter.list(rights, controllerId());
    }

    public DescribeTopicsResponse describeTopics(DescribeTopicsRequest request, CallOrigin origin) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return DescribeTopicsResponse.newBuilder().setHeader(invalid(bad.get())).build();
        }
        RequestAccess rights = rights(origin);
        Optional<ApiError> refused = calls.access().admit(rights.image(), origin.caller(), origin.aclOffset());
        if (refused.isPresent()) {
            return DescribeTopicsResponse.newBuilder().setHeader(readFailed(refused.get(), rights)).build();
        }
        return TopicReadsConverter.describe(request, rights, controllerId());
    }

    public DescribeConfigsResponse describeConfigs(DescribeConfigsRequest request, CallOrigin origin) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return DescribeConfigsResponse.newBuilder().setHeader(invalid(bad.get())).build();
        }
        RequestAccess rights = rights(origin);
        Optional<ApiError> refused = calls.access().admit(rights.image(), origin.caller(), origin.aclOffset());
        if (refused.isPresent()) {
            return DescribeConfigsResponse.newBuilder().setHeader(readFailed(refused.get(), rights)).build();
        }
        return ConfigsConverter.describe(request, rights, controllerId());
    }

    /**
     * Kafka's Metadata: the brokers and the cluster id, which every client may read (it needs
     * them to reach the cluster at all, so Kafka asks no right for them), and the topics
     * {@code topics} names (or every one), authorized as {@link #describeTopics} does, all from
     * one committed image; {@code topics} absent asks for none. Unpaged, topics come without
     * configs; a page (Kafka's DescribeTopicPartitions) is as {@link #describeTopics} pages it.
     */
    public ClusterMetadata describeMetadata(Optional<DescribeTopicsRequest> topics, CallOrigin origin) {
        RequestAccess rights = rights(origin);
        DescribeClusterResponse cluster = TopicReadsConverter.cluster(rights.image(), clusterId, controllerId());
        long offset = rights.image().lastCommittedOffset();
        if (topics.isEmpty()) {
            return new ClusterMetadata(cluster, DescribeTopicsResponse.newBuilder()
                    .setHeader(ResponseHeaders.ok(controllerId(), offset)).build());
        }
        DescribeTopicsRequest request = topics.get();
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            return new ClusterMetadata(cluster, DescribeTopicsResponse.newBuilder().setHeader(invalid(bad.get()))
                    .build());
        }
        Optional<ApiError> refused = calls.access().admit(rights.image(), origin.caller(), origin.aclOffset());
        if (refused.isPresent()) {
            return new ClusterMetadata(cluster, DescribeTopicsResponse.newBuilder()
                    .setHeader(readFailed(refused.get(), rights)).build());
        }
        return new ClusterMetadata(cluster, DescribePages.isPaged(request)
                ? TopicReadsConverter.describe(request, rights, controllerId())
                : TopicReadsConverter.describe(request, rights, controllerId(), false));
    }

    /** Needs DESCRIBE on the cluster: the nodes, their addresses and states are the cluster's. */
    public DescribeClusterResponse describeCluster(DescribeClusterRequest request, CallOrigin origin) {
        RequestAccess rights = rights(origin);
        Optional<ApiError> refused = clusterCheck(rights, origin, AclOperation.DESCRIBE);
        if (refused.isPresent()) {
            return DescribeClusterResponse.newBuilder().setHeader(readFailed(refused.get(), rights)).build();
        }
        return TopicReadsConverter.cluster(rights.image(), clusterId, controllerId());
    }

    /**
     * Whether the caller may do {@code operation} on the cluster, on this node's committed image:
     * empty when it may, else the error to answer (CLUSTER_AUTHORIZATION_FAILED, or
     * AUTHORIZER_NOT_READY when the image cannot decide yet). For what a node serves beside this
     * API with a cluster right in {@link io.metaquorum.node.access.RpcAccessTable}, such as
     * DescribeQuorum on the Kafka-protocol listener.
     */
    public Optional<ApiError> refusedOnCluster(CallOrigin origin, AclOperation operation) {
        return clusterCheck(rights(origin), origin, operation);
    }

    /**
     * Kafka's {@code cluster_authorized_operations}: none unless the caller may DESCRIBE the
     * cluster (also when this node cannot decide yet), else those of {@link #CLUSTER_OPERATIONS}
     * it holds. Only the DESCRIBE denial is audited; the others shape an answer.
     */
    public Set<AclOperation> authorizedClusterOperations(CallOrigin origin) {
        RequestAccess rights = rights(origin);
        Set<AclOperation> held = EnumSet.noneOf(AclOperation.class);
        if (clusterCheck(rights, origin, AclOperation.DESCRIBE).isPresent()) {
            return held;
        }
        CLUSTER_OPERATIONS.stream().filter(rights::holdsOnCluster).forEach(held::add);
        return held;
    }

    /**
     * Kafka's {@code topic_authorized_operations} for {@code topic}: those of
     * {@link #TOPIC_OPERATIONS} the caller holds on it (none when this node cannot decide yet).
     * Nothing is audited: the answer only describes rights.
     */
    public Set<AclOperation> authorizedTopicOperations(CallOrigin origin, String topic) {
        RequestAccess rights = rights(origin);
        Set<AclOperation> held = EnumSet.noneOf(AclOperation.class);
        if (calls.access().admit(rights.image(), origin.caller(), origin.aclOffset()).isEmpty()) {
            TOPIC_OPERATIONS.stream().filter(operation -> rights.holdsOnTopic(operation, topic)).forEach(held::add);
        }
        return held;
    }

    /**
     * Whether the caller may do {@code operation} on a resource this API has no call for (a
     * group's configs, say), on this node's committed image: for a Kafka API that must answer
     * Kafka's authorization error before it says it serves nothing there. A node that cannot
     * decide yet says no. A denial is audited.
     */
    public boolean allows(CallOrigin origin, AclOperation operation, ResourceType type, String name) {
        RequestAccess rights = rights(origin);
        return calls.access().admit(rights.image(), origin.caller(), origin.aclOffset()).isEmpty()
                && calls.access().allows(rights.image(), origin.caller(), operation, type, name, true);
    }

    /** The caller's rights on this node's committed image, the one the read answers from. */
    private RequestAccess rights(CallOrigin origin) {
        MetadataImage image = calls.gateway().committedImage();
        return new RequestAccess(calls.access(), image, origin.caller());
    }

    private Optional<ApiError> clusterCheck(RequestAccess rights, CallOrigin origin, AclOperation operation) {
        Optional<ApiError> refused = calls.access().admit(rights.image(), origin.caller(), origin.aclOffset());
        if (refused.isPresent()) {
            return refused;
        }
        return rights.allowsOnCluster(operation) ? Optional.empty() : Optional.of(clusterDenied());
    }

    static ApiError clusterDenied() {
        return ApiError.of(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, AuthorizedWrites.CLUSTER_DENIED);
    }

    private AdminResponseHeader readFailed(ApiError error, RequestAccess rights) {
        return ResponseHeaders.header(error, controllerId(), rights.image().lastCommittedOffset());
    }

    private AdminResponseHeader writeOk() {
        return ResponseHeaders.ok(controllerId(), ResponseHeaders.NO_OFFSET);
    }

    private int controllerId() {
        return calls.gateway().knownControllerId();
    }

    private AdminResponseHeader invalid(String message) {
        return ResponseHeaders.header(ApiError.of(ErrorCode.INVALID_REQUEST, message), controllerId(),
                ResponseHeaders.NO_OFFSET);
    }
}

package io.metaquorum.client;

import io.metaquorum.client.transport.AdminTransport;
import io.metaquorum.client.transport.Attempt;
import io.metaquorum.client.grpc.GrpcAdminTransport;
import io.metaquorum.security.grpc.ClientSecurity;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.common.time.Time;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.CreatePartitionsTopicResult;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeConfigsResponse;
import io.metaquorum.protocol.DescribeConfigsResult;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsResponse;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.retry.AdminOptions;
import io.metaquorum.retry.NodeCursor;
import io.metaquorum.net.HostPort;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The admin API's client (admin.proto) for tools and benchmarks. Bootstraps from a list of
 * {@code host:port}; any node serves the API. Every call has one overall deadline
 * ({@code timeoutMs}) and acts on the handling class of each error (see {@link RetryingCall}):
 * RETRIABLE is retried with backoff, REFRESH_AND_RETRY (and an unreachable node) moves to
 * another node and retries, anything else is final.
 *
 * <p>Batch calls return one result per requested item, in request order, each with its
 * own error code and message: a batch where some topics fail is not an exception. A call
 * throws {@link AdminException} only when the request as a whole fails (a request-level
 * error that is not retriable, or no answer at all for a call without per-item results).
 *
 * <p>Its own ACL changes apply to its later calls: the client keeps the highest
 * {@code commit_offset} its CreateAcls and DeleteAcls answers gave, and every later call
 * carries it (the {@code mq-acl-offset} header); a node that enforces ACLs and whose image is
 * behind it answers AUTHORIZER_NOT_READY, which is RETRIABLE, rather than authorize the call
 * on the ACLs from before the change. (A node without an authorizer, or a call by a super user,
 * is not held back: nothing is decided by ACLs there.)
 * Thread-safe; close it to release its connections.
 */
public final class AdminClient implements AutoCloseable {
    /** Partitions per page of a paged describe of every topic: the largest page a node serves. */
    public static final int DESCRIBE_PAGE_PARTITIONS = 10_000;
    /** Pages of one paged describe: far above what 2^31 partitions would need at one per page. */
    private static final long DESCRIBE_PAGES_MAX = Integer.MAX_VALUE;

    private final AdminTransport transport;
    private final NodeCursor<HostPort> nodes;
    private final AdminOptions options;
    private final Time time;
    private final Sleeper sleeper;
    private final AclWriteOffset aclWrites = new AclWriteOffset();

    /**
     * @param nodeAddresses where node ids are reached, if known (for example from
     *     {@code controller.quorum.voters}): a refresh goes straight to the controller a node
     *     names; without it a refresh goes to the next bootstrap node
     */
    public AdminClient(AdminTransport transport, List<HostPort> bootstrap, Map<Integer, HostPort> nodeAddresses,
            AdminOptions options, Time time, Sleeper sleeper) {
        this.transport = transport;
        this.nodes = new NodeCursor<>(bootstrap, Map.copyOf(nodeAddresses));
        this.options = options;
        this.time = time;
        this.sleeper = sleeper;
    }

    /** A client over gRPC (plaintext) with the default limits and no known node addresses. */
    public static AdminClient connect(List<HostPort> bootstrap) {
        return connect(bootstrap, Map.of(), AdminOptions.DEFAULT);
    }

    public static AdminClient connect(List<HostPort> bootstrap, Map<Integer, HostPort> nodeAddresses,
            AdminOptions options) {
        return connect(bootstrap, nodeAddresses, options, ClientSecurity.PLAINTEXT);
    }

    /** A client whose connections are secured as {@code security} says (TLS for nodes with an SSL listener). */
    public static AdminClient connect(List<HostPort> bootstrap, ClientSecurity security) {
        return connect(bootstrap, Map.of(), AdminOptions.DEFAULT, security);
    }

    public static AdminClient connect(List<HostPort> bootstrap, Map<Integer, HostPort> nodeAddresses,
            AdminOptions options, ClientSecurity security) {
        return new AdminClient(GrpcAdminTransport.connecting(security), bootstrap, nodeAddresses, options,
                SystemTime.INSTANCE, Sleeper.SYSTEM);
    }

    /** The CreateTopics {@code timeout_ms} of one attempt: a little under its own wait, so the node answers first. */
    static int serverTimeoutMs(long attemptTimeoutMs) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, attemptTimeoutMs - attemptTimeoutMs / 10));
    }

    /** Creates topics, each answered once committed with every partition led (or with its error). */
    public List<CreatableTopicResult> createTopics(List<CreatableTopic> topics, boolean validateOnly, long timeoutMs) {
        return createTopics(CreateTopicsRequest.newBuilder().addAllTopics(topics).setValidateOnly(validateOnly)
                .setTimeoutMs(Integer.MAX_VALUE).build(), timeoutMs);
    }

    /**
     * Sends {@code request}'s topics and {@code validate_only}. Its {@code timeout_ms} <= 0 is
     * sent as is (the node answers once validated and appended); a positive one is capped at
     * {@link #serverTimeoutMs} of each attempt.
     */
    public List<CreatableTopicResult> createTopics(CreateTopicsRequest request, long timeoutMs) {
        BatchSpec<CreatableTopic, CreatableTopicResult, CreateTopicsResponse> spec = new BatchSpec<>(
                (node, items, attemptMs) -> transport.createTopics(node, request.toBuilder().clearTopics()
                        .addAllTopics(items).setTimeoutMs(request.getTimeoutMs() <= 0 ? request.getTimeoutMs()
                                : Math.min(request.getTimeoutMs(), serverTimeoutMs(attemptMs)))
                        .build(), attempt(attemptMs)),
                CreateTopicsResponse::getHeader, CreateTopicsResponse::getTopicsList,
                CreatableTopic::getName, result -> List.of(result.getName()),
                CreatableTopicResult::getErrorCode, CreatableTopicResult::getErrorMessage,
                (item, code, message) -> CreatableTopicResult.newBuilder().setName(item.getName())
                        .setErrorCode(code).setErrorMessage(message).build());
        return run("CreateTopics", spec, request.getTopicsList(), timeoutMs);
    }

    /** Deletes topics by name or by id; a result answers the name or id it was asked by. */
    public List<DeletableTopicResult> deleteTopics(List<TopicRef> topics, long timeoutMs) {
        BatchSpec<TopicRef, DeletableTopicResult, DeleteTopicsResponse> spec = new BatchSpec<>(
                (node, items, attemptMs) -> transport.deleteTopics(node, DeleteTopicsRequest.newBuilder()
                        .addAllTopics(items).setTimeoutMs(serverTimeoutMs(attemptMs)).build(), attempt(attemptMs)),
                DeleteTopicsResponse::getHeader, DeleteTopicsResponse::getTopicsList,
                AdminClient::key, result -> result.hasTopicId()
                        ? List.of(result.getName(), idKey(result.getTopicId())) : List.of(result.getName()),
                DeletableTopicResult::getErrorCode, DeletableTopicResult::getErrorMessage,
                (item, code, message) -> {
                    DeletableTopicResult.Builder result = DeletableTopicResult.newBuilder()
                            .setErrorCode(code).setErrorMessage(message);
                    if (item.hasTopicId()) {
                        result.setTopicId(item.getTopicId());
                    } else {
                        result.setName(item.getName());
                    }
                    return result.build();
                });
        return run("DeleteTopics", spec, topics, timeoutMs);
    }

    /** Grows topics to {@code count} partitions each (CreatePartitions only grows). */
    public List<CreatePartitionsTopicResult> createPartitions(List<CreatePartitionsTopic> topics, boolean validateOnly,
            long timeoutMs) {
        BatchSpec<CreatePartitionsTopic, CreatePartitionsTopicResult, CreatePartitionsResponse> spec = new BatchSpec<>(
                (node, items, attemptMs) -> transport.createPartitions(node, CreatePartitionsRequest.newBuilder()
                        .addAllTopics(items).setTimeoutMs(serverTimeoutMs(attemptMs)).setValidateOnly(validateOnly)
                        .build(), attempt(attemptMs)),
                CreatePartitionsResponse::getHeader, CreatePartitionsResponse::getTopicsList,
                CreatePartitionsTopic::getName, result -> List.of(result.getName()),
                CreatePartitionsTopicResult::getErrorCode, CreatePartitionsTopicResult::getErrorMessage,
                (item, code, message) -> CreatePartitionsTopicResult.newBuilder().setName(item.getName())
                        .setErrorCode(code).setErrorMessage(message).build());
        return run("CreatePartitions", spec, topics, timeoutMs);
    }

    public List<ListedTopic> listTopics(long timeoutMs) {
        return single("ListTopics", new SingleCallSpec<>(
                (node, attemptMs) -> transport.listTopics(node, ListTopicsRequest.getDefaultInstance(),
                        attempt(attemptMs)),
                ListTopicsResponse::getHeader), timeoutMs).getTopicsList();
    }

    /**
     * Describes the given topics (by name or id), a result for each; an empty list describes
     * every topic, in the order the node answers.
     */
    public List<DescribedTopic> describeTopics(List<TopicRef> topics, long timeoutMs) {
        if (topics.isEmpty()) {
            return single("DescribeTopics", new SingleCallSpec<>(
                    (node, attemptMs) -> transport.describeTopics(node, DescribeTopicsRequest.getDefaultInstance(),
                            attempt(attemptMs)),
                    DescribeTopicsResponse::getHeader), timeoutMs).getTopicsList();
        }
        BatchSpec<TopicRef, DescribedTopic, DescribeTopicsResponse> spec = new BatchSpec<>(
                (node, items, attemptMs) -> transport.describeTopics(node,
                        DescribeTopicsRequest.newBuilder().addAllTopics(items).build(), attempt(attemptMs)),
                DescribeTopicsResponse::getHeader, DescribeTopicsResponse::getTopicsList,
                AdminClient::key, result -> result.hasTopicId()
                        ? List.of(result.getName(), idKey(result.getTopicId())) : List.of(result.getName()),
                DescribedTopic::getErrorCode, DescribedTopic::getErrorMessage,
                (item, code, message) -> {
                    DescribedTopic.Builder result = DescribedTopic.newBuilder().setErrorCode(code).setErrorMessage(message);
                    if (item.hasTopicId()) {
                        result.setTopicId(item.getTopicId());
                    } else {
                        result.setName(item.getName());
                    }
                    return result.build();
                });
        return run("DescribeTopics", spec, topics, timeoutMs);
    }

    /**
     * Describes every topic a page at a time (a paged DescribeTopics, as Kafka's
     * DescribeTopicPartitions): {@code onPage} gets each answer in turn, topics in name order,
     * at most {@code pagePartitions} partitions each; a page may stop inside a topic, and the
     * next one starts with the rest of it. Each page is one call with its own
     * {@code timeoutMs}, retried and moved between nodes as any call; so pages may be answered
     * by different nodes at different offsets (each header says which): each page is one
     * committed image, and a topic created or deleted during the walk may or may not appear.
     * Memory is one page.
     */
    public void describeTopicPages(int pagePartitions, long timeoutMs, Consumer<DescribeTopicsResponse> onPage) {
        DescribeTopicsRequest.Builder request = DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(pagePartitions);
        for (long pages = 0; pages < DESCRIBE_PAGES_MAX; pages++) {
            DescribeTopicsRequest sent = request.build();
            DescribeTopicsResponse page = single("DescribeTopics", new SingleCallSpec<>(
                    (node, attemptMs) -> transport.describeTopics(node, sent, attempt(attemptMs)),
                    DescribeTopicsResponse::getHeader), timeoutMs);
            onPage.accept(page);
            if (!page.hasNextCursor()) {
                return;
            }
            if (sent.hasCursor() && !isAfter(page.getNextCursor(), sent.getCursor())) {
                throw new AdminException(ErrorCode.UNKNOWN_SERVER_ERROR, "DescribeTopics answered a next_cursor ("
                        + page.getNextCursor().getTopicName() + ", " + page.getNextCursor().getPartitionIndex()
                        + ") that does not move past the one it was sent");
            }
            request.setCursor(page.getNextCursor());
        }
        throw new AdminException(ErrorCode.UNKNOWN_SERVER_ERROR, "DescribeTopics did not end after "
                + DESCRIBE_PAGES_MAX + " pages");
    }

    /**
     * Every topic, whole, in name order, read with {@link #describeTopicPages}: the pieces of a
     * topic split across pages are joined before {@code onTopic} sees it, and a topic deleted
     * while the walk was inside it is left out ({@link PageJoiner}). Memory is one page and one
     * topic.
     */
    public void describeAllTopics(int pagePartitions, long timeoutMs, Consumer<DescribedTopic> onTopic) {
        PageJoiner joiner = new PageJoiner(onTopic);
        describeTopicPages(pagePartitions, timeoutMs, joiner::onPage);
    }

    private static boolean isAfter(DescribeTopicsCursor next, DescribeTopicsCursor previous) {
        int byName = next.getTopicName().compareTo(previous.getTopicName());
        return byName > 0 || byName == 0 && next.getPartitionIndex() > previous.getPartitionIndex();
    }

    public List<DescribeConfigsResult> describeConfigs(List<DescribeConfigsResource> resources, long timeoutMs) {
        BatchSpec<DescribeConfigsResource, DescribeConfigsResult, DescribeConfigsResponse> spec = new BatchSpec<>(
                (node, items, attemptMs) -> transport.describeConfigs(node,
                        DescribeConfigsRequest.newBuilder().addAllResources(items).build(), attempt(attemptMs)),
                DescribeConfigsResponse::getHeader, DescribeConfigsResponse::getResultsList,
                item -> item.getResourceTypeValue() + "/" + item.getResourceName(),
                result -> resourceKeys(result.getResourceTypeValue(), result.getResourceName()),
                DescribeConfigsResult::getErrorCode, DescribeConfigsResult::getErrorMessage,
                (item, code, message) -> DescribeConfigsResult.newBuilder().setResourceType(item.getResourceType())
                        .setResourceName(item.getResourceName()).setErrorCode(code).setErrorMessage(message).build());
        return run("DescribeConfigs", spec, resources, timeoutMs);
    }

    public List<AlterConfigsResourceResult> incrementalAlterConfigs(List<AlterConfigsResource> resources,
            boolean validateOnly, long timeoutMs) {
        BatchSpec<AlterConfigsResource, AlterConfigsResourceResult, IncrementalAlterConfigsResponse> spec =
                new BatchSpec<>(
                (node, items, attemptMs) -> transport.incrementalAlterConfigs(node, IncrementalAlterConfigsRequest
                        .newBuilder().addAllResources(items).setValidateOnly(validateOnly).build(),
                        attempt(attemptMs)),
                IncrementalAlterConfigsResponse::getHeader, IncrementalAlterConfigsResponse::getResultsList,
                item -> item.getResourceTypeValue() + "/" + item.getResourceName(),
                result -> resourceKeys(result.getResourceTypeValue(), result.getResourceName()),
                AlterConfigsResourceResult::getErrorCode, AlterConfigsResourceResult::getErrorMessage,
                (item, code, message) -> AlterConfigsResourceResult.newBuilder()
                        .setResourceType(item.getResourceType()).setResourceName(item.getResourceName())
                        .setErrorCode(code).setErrorMessage(message).build());
        return run("IncrementalAlterConfigs", spec, resources, timeoutMs);
    }

    public DescribeClusterResponse describeCluster(long timeoutMs) {
        return single("DescribeCluster", new SingleCallSpec<>(
                (node, attemptMs) -> transport.describeCluster(node, DescribeClusterRequest.getDefaultInstance(),
                        attempt(attemptMs)),
                DescribeClusterResponse::getHeader), timeoutMs);
    }

    /**
     * Creates ACLs: one result per creation, in order, in the response (an ACL identical to one
     * that exists succeeds and writes nothing). The request is decided whole by the
     * controller, so it is retried whole; a retry of creations that did commit finds them
     * present. {@code commit_offset} says where a read sees them.
     */
    public CreateAclsResponse createAcls(List<AclCreation> creations, long timeoutMs) {
        CreateAclsRequest request = CreateAclsRequest.newBuilder().addAllCreations(creations).build();
        CreateAclsResponse response = single("CreateAcls", new SingleCallSpec<>(
                (node, attemptMs) -> transport.createAcls(node, request, attempt(attemptMs)),
                CreateAclsResponse::getHeader), timeoutMs);
        aclWrites.committed(response.getCommitOffset());
        return response;
    }

    /**
     * Alters SCRAM credentials: one result per user named. Decided by the active controller
     * and answered once committed; an upsertion carries the salted password, never the password.
     */
    public AlterUserScramCredentialsResponse alterUserScramCredentials(AlterUserScramCredentialsRequest request,
                                                                       long timeoutMs) {
        return single("AlterUserScramCredentials", new SingleCallSpec<>(
                (node, attemptMs) -> transport.alterUserScramCredentials(node, request, attempt(attemptMs)),
                AlterUserScramCredentialsResponse::getHeader), timeoutMs);
    }

    /** The mechanisms and iterations of {@code users} (every user when none), from the answering node's image. */
    public DescribeUserScramCredentialsResponse describeUserScramCredentials(List<String> users, long timeoutMs) {
        DescribeUserScramCredentialsRequest request = DescribeUserScramCredentialsRequest.newBuilder()
                .addAllUsers(users).build();
        return single("DescribeUserScramCredentials", new SingleCallSpec<>(
                (node, attemptMs) -> transport.describeUserScramCredentials(node, request, attempt(attemptMs)),
                DescribeUserScramCredentialsResponse::getHeader), timeoutMs);
    }

    /** The ACLs {@code filter} matches, as the answering node's committed image has them. */
    public DescribeAclsResponse describeAcls(AclFilter filter, long timeoutMs) {
        DescribeAclsRequest request = DescribeAclsRequest.newBuilder().setFilter(filter).build();
        return single("DescribeAcls", new SingleCallSpec<>(
                (node, attemptMs) -> transport.describeAcls(node, request, attempt(attemptMs)),
                DescribeAclsResponse::getHeader), timeoutMs);
    }

    /**
     * Deletes the ACLs the filters match: one result per filter, in order, with what it
     * deleted. Retried whole like {@link #createAcls}; a retry after a commit reports only what
     * was still there.
     */
    public DeleteAclsResponse deleteAcls(List<AclFilter> filters, long timeoutMs) {
        DeleteAclsRequest request = DeleteAclsRequest.newBuilder().addAllFilters(filters).build();
        DeleteAclsResponse response = single("DeleteAcls", new SingleCallSpec<>(
                (node, attemptMs) -> transport.deleteAcls(node, request, attempt(attemptMs)),
                DeleteAclsResponse::getHeader), timeoutMs);
        aclWrites.committed(response.getCommitOffset());
        return response;
    }

    /**
     * The decision the answering node would make on {@code request} (may its principal, from its
     * host, do its operation on its resource?) and the rule that made it: a super user, the
     * deciding ACL, or the default, from that node's committed image and its
     * {@code super.users} and {@code allow.everyone.if.no.acl.found}.
     */
    public ExplainAclResponse explainAcl(ExplainAclRequest request, long timeoutMs) {
        return single("ExplainAcl", new SingleCallSpec<>(
                (node, attemptMs) -> transport.explainAcl(node, request, attempt(attemptMs)),
                ExplainAclResponse::getHeader), timeoutMs);
    }

    @Override
    public void close() {
        transport.close();
    }

    /** An attempt of {@code attemptMs} that carries this client's newest ACL change. */
    private Attempt attempt(long attemptMs) {
        return new Attempt(attemptMs, aclWrites.offset());
    }

    private <I, R, P> List<R> run(String what, RetryingCall.Spec<I, R, P> spec, List<I> items, long timeoutMs) {
        if (items.isEmpty()) {
            return List.of();
        }
        return new RetryingCall<>(what, spec, nodes, options, time, sleeper, timeoutMs).run(items);
    }

    private <P> P single(String what, SingleCallSpec<P> spec, long timeoutMs) {
        return run(what, spec, List.of(SingleCallSpec.ITEM), timeoutMs).get(0);
    }

    /** A result that leaves its resource type unset answers the resource of that name of either type. */
    private static List<String> resourceKeys(int type, String name) {
        return type == ConfigResourceType.CONFIG_RESOURCE_UNKNOWN_VALUE
                ? List.of(ConfigResourceType.CONFIG_RESOURCE_TOPIC_VALUE + "/" + name,
                        ConfigResourceType.CONFIG_RESOURCE_BROKER_VALUE + "/" + name)
                : List.of(type + "/" + name);
    }

    private static String key(TopicRef ref) {
        return ref.hasTopicId() ? idKey(ref.getTopicId()) : ref.getName();
    }

    private static String idKey(io.metaquorum.protocol.Uuid id) {
        return "id:" + TopicIds.toBase64(id);
    }
}

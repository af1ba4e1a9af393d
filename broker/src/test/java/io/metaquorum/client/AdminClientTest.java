package io.metaquorum.client;

import io.metaquorum.retry.AdminOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.net.HostPort;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client's retry rules against scripted nodes over in-process gRPC. */
class AdminClientTest {
    private static final long TIMEOUT_MS = 30_000;

    private final InProcessCluster cluster = new InProcessCluster();

    @AfterEach
    void stop() {
        cluster.close();
    }

    static CreatableTopic topic(String name) {
        return CreatableTopic.newBuilder().setName(name).setNumPartitions(1).setReplicationFactor(1).build();
    }

    static CreatableTopicResult result(String name, ErrorCode code) {
        return CreatableTopicResult.newBuilder().setName(name).setErrorCode(code).setErrorMessage(code + " for " + name)
                .build();
    }

    static CreateTopicsResponse created(CreatableTopicResult... results) {
        return CreateTopicsResponse.newBuilder().setHeader(header(ErrorCode.NONE, -1)).addAllTopics(List.of(results))
                .build();
    }

    static AdminResponseHeader header(ErrorCode code, int controllerId) {
        return AdminResponseHeader.newBuilder().setErrorCode(code).setErrorMessage(code == ErrorCode.NONE ? "" : "said " + code)
                .setControllerId(controllerId).setMetadataOffset(-1).build();
    }

    static CreateTopicsResponse refused(ErrorCode code, int controllerId) {
        return CreateTopicsResponse.newBuilder().setHeader(header(code, controllerId)).build();
    }

    static List<String> names(CreateTopicsRequest request) {
        return request.getTopicsList().stream().map(CreatableTopic::getName).toList();
    }

    static List<ErrorCode> codes(List<CreatableTopicResult> results) {
        return results.stream().map(CreatableTopicResult::getErrorCode).toList();
    }

    @Test
    void retriesOnlyTheTopicsWithARetriableError() {
        ScriptedAdminService node = new ScriptedAdminService().answer(
                created(result("a", ErrorCode.NONE), result("b", ErrorCode.LEADER_NOT_AVAILABLE),
                        result("c", ErrorCode.TOPIC_ALREADY_EXISTS)),
                created(result("b", ErrorCode.NONE)));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            List<CreatableTopicResult> results = client.createTopics(List.of(topic("a"), topic("b"), topic("c")),
                    false, TIMEOUT_MS);
            assertEquals(List.of(ErrorCode.NONE, ErrorCode.NONE, ErrorCode.TOPIC_ALREADY_EXISTS), codes(results));
            assertEquals(List.of("a", "b", "c"), results.stream().map(CreatableTopicResult::getName).toList());
        }
        assertEquals(2, node.requests().size());
        assertEquals(List.of("b"), names((CreateTopicsRequest) node.requests().get(1)));
        assertEquals(List.of(50L), cluster.sleepsMs);
    }

    @Test
    void aNonRetriableTopicErrorIsAResultNotARetry() {
        ScriptedAdminService node = new ScriptedAdminService().answer(created(result("a", ErrorCode.INVALID_PARTITIONS)));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            List<CreatableTopicResult> results = client.createTopics(List.of(topic("a")), false, TIMEOUT_MS);
            assertEquals(List.of(ErrorCode.INVALID_PARTITIONS), codes(results));
            assertEquals("INVALID_PARTITIONS for a", results.get(0).getErrorMessage());
        }
        assertEquals(1, node.requests().size());
        assertEquals(List.of(), cluster.sleepsMs);
    }

    @Test
    void notControllerMovesToTheNextBootstrapNode() {
        ScriptedAdminService first = new ScriptedAdminService().answer(refused(ErrorCode.NOT_CONTROLLER, -1));
        ScriptedAdminService second = new ScriptedAdminService().answer(created(result("a", ErrorCode.NONE)));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, first), cluster.node(2, second)))) {
            assertEquals(List.of(ErrorCode.NONE), codes(client.createTopics(List.of(topic("a")), false, TIMEOUT_MS)));
        }
        assertEquals(1, first.requests().size());
        assertEquals(1, second.requests().size());
    }

    @Test
    void aPerTopicNotControllerAlsoMovesOnAndRetriesThatTopic() {
        ScriptedAdminService first = new ScriptedAdminService().answer(
                created(result("a", ErrorCode.NONE), result("b", ErrorCode.NOT_CONTROLLER)));
        ScriptedAdminService second = new ScriptedAdminService().answer(created(result("b", ErrorCode.NONE)));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, first), cluster.node(2, second)))) {
            assertEquals(List.of(ErrorCode.NONE, ErrorCode.NONE),
                    codes(client.createTopics(List.of(topic("a"), topic("b")), false, TIMEOUT_MS)));
        }
        assertEquals(List.of("b"), names((CreateTopicsRequest) second.requests().get(0)));
    }

    @Test
    void notControllerNamingAKnownControllerGoesThere() {
        ScriptedAdminService first = new ScriptedAdminService().answer(refused(ErrorCode.NOT_CONTROLLER, 3));
        ScriptedAdminService unused = new ScriptedAdminService();
        ScriptedAdminService controller = new ScriptedAdminService().answer(created(result("a", ErrorCode.NONE)));
        HostPort one = cluster.node(1, first);
        HostPort two = cluster.node(2, unused);
        HostPort three = cluster.node(3, controller);
        try (AdminClient client = cluster.client(List.of(one, two), Map.of(3, three))) {
            assertEquals(List.of(ErrorCode.NONE), codes(client.createTopics(List.of(topic("a")), false, TIMEOUT_MS)));
        }
        assertEquals(0, unused.requests().size());
        assertEquals(1, controller.requests().size());
    }

    @Test
    void anUnreachableNodeIsSkipped() {
        ScriptedAdminService alive = new ScriptedAdminService().answer(created(result("a", ErrorCode.NONE)));
        try (AdminClient client = cluster.client(List.of(cluster.address(1), cluster.node(2, alive)))) {
            assertEquals(List.of(ErrorCode.NONE), codes(client.createTopics(List.of(topic("a")), false, TIMEOUT_MS)));
        }
        assertEquals(1, alive.requests().size());
    }

    @Test
    void aRetriableRequestErrorRetriesTheSameNodeWithGrowingBackoff() {
        ScriptedAdminService node = new ScriptedAdminService().answer(refused(ErrorCode.REQUEST_TIMED_OUT, -1),
                refused(ErrorCode.REQUEST_TIMED_OUT, -1), created(result("a", ErrorCode.NONE)));
        ScriptedAdminService other = new ScriptedAdminService();
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node), cluster.node(2, other)))) {
            assertEquals(List.of(ErrorCode.NONE), codes(client.createTopics(List.of(topic("a")), false, TIMEOUT_MS)));
        }
        assertEquals(3, node.requests().size());
        assertEquals(0, other.requests().size());
        assertEquals(List.of(50L, 100L), cluster.sleepsMs);
    }

    @Test
    void whileNoControllerIsKnownEveryRetryWaitsOnlyTheInitialBackoff() {
        ScriptedAdminService first = new ScriptedAdminService().answer(refused(ErrorCode.NOT_CONTROLLER, -1),
                refused(ErrorCode.NOT_CONTROLLER, -1), created(result("a", ErrorCode.NONE)));
        ScriptedAdminService second = new ScriptedAdminService().answer(refused(ErrorCode.NOT_CONTROLLER, -1),
                refused(ErrorCode.NOT_CONTROLLER, -1));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, first), cluster.node(2, second)))) {
            assertEquals(List.of(ErrorCode.NONE), codes(client.createTopics(List.of(topic("a")), false, TIMEOUT_MS)));
        }
        assertEquals(5, first.requests().size() + second.requests().size());
        assertEquals(List.of(50L, 50L, 50L, 50L), cluster.sleepsMs, "a failover is not an overload: no doubling");
    }

    @Test
    void aNonRetriableRequestErrorFailsTheCallAtOnce() {
        ScriptedAdminService node = new ScriptedAdminService().answer(refused(ErrorCode.INVALID_REQUEST, -1));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            AdminException failure = assertThrows(AdminException.class,
                    () -> client.createTopics(List.of(topic("a")), false, TIMEOUT_MS));
            assertEquals(ErrorCode.INVALID_REQUEST, failure.code());
            assertEquals("said INVALID_REQUEST", failure.getMessage());
        }
        assertEquals(1, node.requests().size());
    }

    @Test
    void aNodeWithoutTheAdminServiceFailsAtOnceNamingUnsupportedVersion() {
        try (AdminClient client = cluster.client(List.of(cluster.node(1, null)))) {
            AdminException failure = assertThrows(AdminException.class, () -> client.listTopics(TIMEOUT_MS));
            assertEquals(ErrorCode.UNSUPPORTED_VERSION, failure.code());
            assertTrue(failure.getMessage().contains("UNIMPLEMENTED"), failure.getMessage());
        }
    }

    @Test
    void aTopicStillRetriableAtTheDeadlineGetsItsLastError() {
        ScriptedAdminService node = new ScriptedAdminService();
        for (int i = 0; i < 100; i++) {
            node.answer(created(result("a", ErrorCode.LEADER_NOT_AVAILABLE)));
        }
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            CreatableTopicResult result = client.createTopics(List.of(topic("a")), false, 3_000).get(0);
            assertEquals(ErrorCode.LEADER_NOT_AVAILABLE, result.getErrorCode());
            assertTrue(result.getErrorMessage().contains("3000 ms deadline"), result.getErrorMessage());
        }
        long slept = cluster.sleepsMs.stream().mapToLong(Long::longValue).sum();
        assertTrue(slept < 3_000, "slept " + slept);
        assertEquals(node.requests().size(), cluster.sleepsMs.size() + 1);
    }

    @Test
    void noNodeReachableEndsInRequestTimedOutPerTopicAndForASingleCall() {
        try (AdminClient client = cluster.client(List.of(cluster.address(1), cluster.address(2)))) {
            CreatableTopicResult result = client.createTopics(List.of(topic("a")), false, 2_000).get(0);
            assertEquals(ErrorCode.REQUEST_TIMED_OUT, result.getErrorCode());
            assertTrue(result.getErrorMessage().contains("UNAVAILABLE"), result.getErrorMessage());
            AdminException failure = assertThrows(AdminException.class, () -> client.listTopics(2_000));
            assertEquals(ErrorCode.REQUEST_TIMED_OUT, failure.code());
        }
    }

    @Test
    void unavailableThenAnswerForASingleCall() {
        ScriptedAdminService node = new ScriptedAdminService().answer(Status.UNAVAILABLE.withDescription("restarting"),
                ListTopicsResponse.newBuilder().setHeader(header(ErrorCode.NONE, 1))
                        .addTopics(ListedTopic.newBuilder().setName("demo")).build());
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            assertEquals("demo", client.listTopics(TIMEOUT_MS).get(0).getName());
        }
        assertEquals(2, node.requests().size());
    }

    @Test
    void deleteByIdMatchesTheResultById() {
        TopicRef byId = TopicRef.newBuilder().setTopicId(TopicIds.uuid(7, 9)).build();
        TopicRef byName = TopicRef.newBuilder().setName("b").build();
        ScriptedAdminService node = new ScriptedAdminService().answer(DeleteTopicsResponse.newBuilder()
                .setHeader(header(ErrorCode.NONE, -1))
                .addTopics(DeletableTopicResult.newBuilder().setName("b").setTopicId(TopicIds.uuid(1, 2))
                        .setErrorCode(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION))
                .addTopics(DeletableTopicResult.newBuilder().setName("a").setTopicId(TopicIds.uuid(7, 9))).build());
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            List<DeletableTopicResult> results = client.deleteTopics(List.of(byId, byName), TIMEOUT_MS);
            assertEquals("a", results.get(0).getName());
            assertEquals(ErrorCode.NONE, results.get(0).getErrorCode());
            assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, results.get(1).getErrorCode());
        }
    }

    @Test
    void backoffDoublesUpToItsMaximum() {
        AdminOptions options = new AdminOptions(10_000, 50, 300);
        assertEquals(List.of(50L, 100L, 200L, 300L, 300L),
                List.of(options.backoffMs(1), options.backoffMs(2), options.backoffMs(3), options.backoffMs(4),
                        options.backoffMs(5)));
    }

    @Test
    void theServerTimeoutLeavesTheClientTimeToHearTheAnswer() {
        assertEquals(9_000, AdminClient.serverTimeoutMs(10_000));
        assertEquals(1, AdminClient.serverTimeoutMs(1));
    }
    @Test
    void theCreateTimeoutIsCappedPerAttemptAndANonPositiveOneIsKept() {
        ScriptedAdminService node = new ScriptedAdminService().answer(created(result("a", ErrorCode.NONE)),
                created(result("a", ErrorCode.NONE)));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            client.createTopics(List.of(topic("a")), true, TIMEOUT_MS);
            client.createTopics(CreateTopicsRequest.newBuilder().addTopics(topic("a")).setTimeoutMs(0).build(),
                    TIMEOUT_MS);
        }
        CreateTopicsRequest first = (CreateTopicsRequest) node.requests().get(0);
        assertEquals(9_000, first.getTimeoutMs());
        assertTrue(first.getValidateOnly());
        assertEquals(0, ((CreateTopicsRequest) node.requests().get(1)).getTimeoutMs());
    }
}

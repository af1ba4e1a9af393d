package io.metaquorum.client;

import static io.metaquorum.client.AdminClientTest.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.net.HostPort;
import io.metaquorum.retry.ErrorHandling;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's ACL calls against scripted nodes over in-process gRPC: the ACL offset each call
 * carries after the client's own ACL changes, and AUTHORIZER_NOT_READY retried.
 */
class AdminClientAclsTest {
    private static final long TIMEOUT_MS = 30_000;
    private static final ExplainAclRequest QUESTION = ExplainAclRequest.newBuilder().setPrincipal("User:bob")
            .setHost("127.0.0.1").setOperation(4).setResourceType(2).setResourceName("orders").build();

    private final InProcessCluster cluster = new InProcessCluster();

    @AfterEach
    void stop() {
        cluster.close();
    }

    private static CreateAclsResponse created(long commitOffset) {
        return CreateAclsResponse.newBuilder().setHeader(header(ErrorCode.NONE, 1)).setCommitOffset(commitOffset)
                .build();
    }

    private static DeleteAclsResponse deleted(long commitOffset) {
        return DeleteAclsResponse.newBuilder().setHeader(header(ErrorCode.NONE, 1)).setCommitOffset(commitOffset)
                .build();
    }

    private static ExplainAclResponse explained(ErrorCode code) {
        return ExplainAclResponse.newBuilder().setHeader(header(code, 1)).setAllowed(code == ErrorCode.NONE)
                .setRule("ACL").setExplanation("ALLOWED User:bob WRITE TOPIC orders from 127.0.0.1 by ACL x")
                .setAuthorizerEnabled(true).build();
    }

    private static ListTopicsResponse listed() {
        return ListTopicsResponse.newBuilder().setHeader(header(ErrorCode.NONE, 1)).build();
    }

    @Test
    void everyCallAfterAnAclChangeCarriesTheHighestCommitOffsetTheClientWasAnswered() {
        ScriptedAdminService node = new ScriptedAdminService().answer(listed(), created(12),
                DescribeAclsResponse.newBuilder().setHeader(header(ErrorCode.NONE, 1)).build(), deleted(9), listed(),
                created(-1), deleted(15), explained(ErrorCode.NONE));
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            client.listTopics(TIMEOUT_MS);
            client.createAcls(List.of(), TIMEOUT_MS);
            client.describeAcls(AclFilter.getDefaultInstance(), TIMEOUT_MS);
            client.deleteAcls(List.of(), TIMEOUT_MS);
            client.listTopics(TIMEOUT_MS);
            client.createAcls(List.of(), TIMEOUT_MS);
            client.deleteAcls(List.of(), TIMEOUT_MS);
            client.explainAcl(QUESTION, TIMEOUT_MS);
        }
        // Nothing before the first change; then 12 on every call, a topic call too, until a
        // change answers a higher offset: an older answer (9) or a failed one (-1) lowers nothing.
        assertEquals(Arrays.asList(null, null, "12", "12", "12", "12", "12", "15"), node.aclOffsets());
    }

    @Test
    void aSecondClientCarriesNothing() {
        ScriptedAdminService node = new ScriptedAdminService().answer(created(12), listed());
        List<HostPort> nodes = List.of(cluster.node(1, node));
        try (AdminClient writer = cluster.client(nodes); AdminClient reader = cluster.client(nodes)) {
            writer.createAcls(List.of(), TIMEOUT_MS);
            reader.listTopics(TIMEOUT_MS);
        }
        assertEquals(Arrays.asList(null, null), node.aclOffsets(), "the offset is the writing client's own");
    }

    @Test
    void authorizerNotReadyIsRetriableAndRetriedOnTheSameNodeWithTheOffsetEachTime() {
        assertEquals(ErrorClass.RETRIABLE, ErrorHandling.of(ErrorCode.AUTHORIZER_NOT_READY));
        ScriptedAdminService node = new ScriptedAdminService().answer(created(20),
                explained(ErrorCode.AUTHORIZER_NOT_READY), explained(ErrorCode.AUTHORIZER_NOT_READY),
                explained(ErrorCode.NONE));
        ScriptedAdminService other = new ScriptedAdminService();
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node), cluster.node(2, other)))) {
            client.createAcls(List.of(), TIMEOUT_MS);
            ExplainAclResponse answer = client.explainAcl(QUESTION, TIMEOUT_MS);
            assertTrue(answer.getAllowed());
            assertEquals(QUESTION, node.requests().get(3));
        }
        assertEquals(Arrays.asList(null, "20", "20", "20"), node.aclOffsets());
        assertEquals(List.of(), other.requests(), "a node behind is waited for, not left");
        assertEquals(List.of(50L, 100L), cluster.sleepsMs);
    }

    @Test
    void aNodeStillNotReadyAtTheDeadlineTimesTheCallOutNamingAuthorizerNotReady() {
        ScriptedAdminService node = new ScriptedAdminService();
        for (int i = 0; i < 100; i++) {
            node.answer(explained(ErrorCode.AUTHORIZER_NOT_READY));
        }
        try (AdminClient client = cluster.client(List.of(cluster.node(1, node)))) {
            AdminException failure = assertThrows(AdminException.class, () -> client.explainAcl(QUESTION, 3_000));
            assertEquals(ErrorCode.REQUEST_TIMED_OUT, failure.code(), "as any request-level retriable error");
            assertTrue(failure.getMessage().contains("answered AUTHORIZER_NOT_READY"), failure.getMessage());
            assertTrue(failure.getMessage().contains("3000 ms deadline"), failure.getMessage());
        }
    }
}

package io.metaquorum.server.admin;

import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.raft.transport.grpc.RefusingPort;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writes reaching a node that is not the active controller: forwarded once, or NOT_CONTROLLER. */
class ForwardingTest {
    private AdminTestNode node1;
    private AdminTestNode node2;

    @AfterEach
    void stop() throws Exception {
        for (AdminTestNode node : new AdminTestNode[] {node1, node2}) {
            if (node != null) {
                node.close();
            }
        }
    }

    private static CreateTopicsRequest createOne(String name) {
        return CreateTopicsRequest.newBuilder().addTopics(CreatableTopic.newBuilder().setName(name)
                .setNumPartitions(1).setReplicationFactor(1)).setTimeoutMs(5_000).build();
    }

    private static void assertNotController(CreateTopicsResponse response, int controllerId) {
        assertEquals(ErrorCode.NOT_CONTROLLER, response.getHeader().getErrorCode());
        assertEquals(controllerId, response.getHeader().getControllerId());
        assertEquals(1, response.getTopicsCount());
        assertEquals(ErrorCode.NOT_CONTROLLER, response.getTopics(0).getErrorCode());
    }

    @Test
    void standbyWithNoKnownControllerAnswersNotController() throws Exception {
        node1 = new AdminTestNode(1).serve(Map.of());
        CreateTopicsResponse response = node1.admin().createTopics(createOne("t1"));
        assertNotController(response, -1);
        assertEquals("No active controller is known.", response.getHeader().getErrorMessage());
        BrokerRegistrationResponse registration = node1.lifecycle().registerBroker(AdminTestNode.registration(1));
        assertEquals(ErrorCode.NOT_CONTROLLER, registration.getErrorCode());
        assertEquals(-1, registration.getControllerId());
    }

    @Test
    void standbyThatKnowsOnlyItselfAnswersNotController() throws Exception {
        node1 = new AdminTestNode(1);
        node1.serve(Map.of(1, node1.address()));
        node1.gateway.knowController(1);
        assertNotController(node1.admin().createTopics(createOne("t1")), 1);
    }

    @Test
    void standbyForwardsWritesToTheActiveController() throws Exception {
        node1 = new AdminTestNode(1);
        node2 = new AdminTestNode(2);
        AdminTestNode.serveActiveAndStandby(node1, node2);
        CreateTopicsResponse response = node2.admin().createTopics(createOne("t1"));
        assertEquals(ErrorCode.NONE, response.getHeader().getErrorCode());
        assertEquals(ErrorCode.NONE, response.getTopics(0).getErrorCode(), response.getTopics(0).getErrorMessage());
        assertEquals(1, response.getHeader().getControllerId());
        assertEquals(List.of("t1"), node1.admin().listTopics(ListTopicsRequest.getDefaultInstance()).getTopicsList()
                .stream().map(ListedTopic::getName).toList());
        // Reads are node 2's own: its image (fed by nothing in this test) has no topics.
        assertEquals(0, node2.admin().listTopics(ListTopicsRequest.getDefaultInstance()).getTopicsCount());
    }

    @Test
    void forwardedRequestIsNeverForwardedAgain() throws Exception {
        node1 = new AdminTestNode(1);
        node2 = new AdminTestNode(2);
        Map<Integer, InetSocketAddress> voters = Map.of(1, node1.address(), 2, node2.address());
        node1.serve(voters);
        node2.serve(voters);
        // Each believes the other is the controller: without the mark they would bounce the request.
        node1.gateway.knowController(2);
        node2.gateway.knowController(1);

        CreateTopicsResponse response = node2.admin().createTopics(createOne("t1"));
        assertNotController(response, 2);
        assertTrue(response.getHeader().getErrorMessage().contains("does not forward a request that was forwarded"),
                response.getHeader().getErrorMessage());
    }

    @Test
    void unreachableControllerAnswersNotController() throws Exception {
        node2 = new AdminTestNode(2);
        try (RefusingPort nobody = RefusingPort.open()) {
            node2.serve(Map.of(1, nobody.address()));
            node2.gateway.knowController(1);
            CreateTopicsResponse response = node2.admin().createTopics(createOne("t1"));
            assertNotController(response, 1);
            assertTrue(response.getHeader().getErrorMessage().startsWith("Forwarding to the active controller failed"),
                    response.getHeader().getErrorMessage());
        }
    }

    @Test
    void leadershipLostBeforeTheRequestRunsAnswersNotController() throws Exception {
        node1 = new AdminTestNode(1).serve(Map.of());
        node1.gateway.claimActiveWithoutLeading();
        CreateTopicsResponse response = node1.admin().createTopics(createOne("t1"));
        assertNotController(response, -1);
        assertTrue(response.getHeader().getErrorMessage().startsWith("This node's controller stopped being active"));
    }
}

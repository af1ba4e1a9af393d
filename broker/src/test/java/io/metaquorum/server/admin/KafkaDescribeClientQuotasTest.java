package io.metaquorum.server.admin;

import static io.metaquorum.server.admin.KafkaApisTestNode.ADMIN;
import static io.metaquorum.server.admin.KafkaApisTestNode.MALLORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.security.Caller;
import java.util.List;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.common.requests.DescribeClientQuotasResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's DescribeClientQuotas on a node with the authorizer on: no quota exists here, so a
 * valid filter is answered with no entry; DESCRIBE_CONFIGS on the cluster is checked first;
 * a filter Kafka refuses is INVALID_REQUEST.
 */
class KafkaDescribeClientQuotasTest {
    private KafkaApisTestNode node;

    @BeforeEach
    void start() throws Exception {
        node = new KafkaApisTestNode();
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private DescribeClientQuotasResponse describe(Caller caller, ComponentData... components) throws Exception {
        return node.call(caller, new DescribeClientQuotasRequest(new DescribeClientQuotasRequestData()
                .setComponents(List.of(components)), ApiKeys.DESCRIBE_CLIENT_QUOTAS.latestVersion()));
    }

    private static ComponentData component(String entityType) {
        // Match type 2: any entity of the type that is specified (Kafka's MATCH_TYPE_SPECIFIED).
        return new ComponentData().setEntityType(entityType).setMatchType((byte) 2);
    }

    @Test
    void aValidFilterIsAnsweredWithNoQuota() throws Exception {
        DescribeClientQuotasResponse answer = describe(ADMIN, component("user"));
        assertEquals(Errors.NONE.code(), answer.data().errorCode());
        assertTrue(answer.data().entries().isEmpty());
        assertEquals(Errors.NONE.code(), describe(ADMIN).data().errorCode(), "no component: every entity");
    }

    @Test
    void aCallerWithoutDescribeConfigsOnTheClusterIsRefusedBeforeTheFilterIsRead() throws Exception {
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), describe(MALLORY, component("user")).data()
                .errorCode());
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), describe(MALLORY, component("shoe-size")).data()
                .errorCode());
    }

    @Test
    void filtersKafkaRefusesAreInvalidRequests() throws Exception {
        for (ComponentData[] filter : List.of(new ComponentData[] {component("shoe-size")},
                new ComponentData[] {component("user"), component("user")},
                new ComponentData[] {component("ip"), component("client-id")},
                new ComponentData[] {component("user").setMatchType((byte) 7)})) {
            DescribeClientQuotasResponse answer = describe(ADMIN, filter);
            assertEquals(Errors.INVALID_REQUEST.code(), answer.data().errorCode(), answer.data().errorMessage());
        }
    }
}

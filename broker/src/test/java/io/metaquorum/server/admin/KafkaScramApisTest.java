package io.metaquorum.server.admin;

import static io.metaquorum.server.admin.KafkaApisTestNode.ADMIN;
import static io.metaquorum.server.admin.KafkaApisTestNode.MALLORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.security.Caller;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData.UserName;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.AlterUserScramCredentialsRequest;
import org.apache.kafka.common.requests.AlterUserScramCredentialsResponse;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsRequest;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's AlterUserScramCredentials and DescribeUserScramCredentials built with Kafka's own
 * request classes, on a node with the authorizer on: answers, refusals, and every response
 * written and read back with Kafka's serializer at every version.
 */
class KafkaScramApisTest {
    private static final byte[] SALT = {9, 8, 7, 6};
    private KafkaApisTestNode node;

    @BeforeEach
    void start() throws Exception {
        node = new KafkaApisTestNode();
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private static ScramCredentialUpsertion upsert(String user, int iterations) {
        return new ScramCredentialUpsertion().setName(user).setMechanism((byte) 1).setIterations(iterations)
                .setSalt(SALT).setSaltedPassword(ScramKeys.saltedPassword(ScramMechanism.SCRAM_SHA_256, "pw", SALT,
                        iterations));
    }

    private AlterUserScramCredentialsResponse alter(Caller caller, AlterUserScramCredentialsRequestData data)
            throws Exception {
        return node.call(caller, new AlterUserScramCredentialsRequest.Builder(data).build());
    }

    private DescribeUserScramCredentialsResponse describe(Caller caller, List<UserName> users) throws Exception {
        return node.call(caller, new DescribeUserScramCredentialsRequest.Builder(
                new DescribeUserScramCredentialsRequestData().setUsers(users)).build());
    }

    @Test
    void anUpsertionIsStoredAndDescribedWithKafkasShapes() throws Exception {
        AlterUserScramCredentialsResponse altered = alter(ADMIN, new AlterUserScramCredentialsRequestData()
                .setUpsertions(List.of(upsert("alice", 8192), upsert("bob", 100)))
                .setDeletions(List.of(new ScramCredentialDeletion().setName("carol").setMechanism((byte) 2))));
        assertEquals(List.of("alice", "carol", "bob"), altered.data().results().stream().map(r -> r.user()).toList());
        assertEquals(Errors.NONE.code(), altered.data().results().get(0).errorCode());
        assertNull(altered.data().results().get(0).errorMessage());
        assertEquals(Errors.RESOURCE_NOT_FOUND.code(), altered.data().results().get(1).errorCode());
        assertEquals(Errors.UNACCEPTABLE_CREDENTIAL.code(), altered.data().results().get(2).errorCode());
        assertEquals("Too few iterations", altered.data().results().get(2).errorMessage());
        node.awaitImage(() -> !node.gateway.committedImage().scram().isEmpty());

        DescribeUserScramCredentialsResponse all = describe(ADMIN, null);
        assertEquals(Errors.NONE.code(), all.data().errorCode());
        assertEquals(List.of(new DescribeUserScramCredentialsResult().setUser("alice")
                .setErrorCode((short) 0).setErrorMessage(null)
                .setCredentialInfos(List.of(new CredentialInfo().setMechanism((byte) 1).setIterations(8192)))),
                all.data().results());
        DescribeUserScramCredentialsResponse named = describe(ADMIN, List.of(new UserName().setName("zed")));
        assertEquals(Errors.RESOURCE_NOT_FOUND.code(), named.data().results().get(0).errorCode());
        assertEquals("Attempt to describe a user credential that does not exist: zed",
                named.data().results().get(0).errorMessage());
    }

    @Test
    void withoutRightsAlterFailsForEveryUserAndDescribeWhole() throws Exception {
        AlterUserScramCredentialsResponse altered = alter(MALLORY, new AlterUserScramCredentialsRequestData()
                .setUpsertions(List.of(upsert("alice", 8192), upsert("bob", 8192))));
        assertEquals(List.of(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), Errors.CLUSTER_AUTHORIZATION_FAILED.code()),
                altered.data().results().stream().map(r -> r.errorCode()).toList());
        assertTrue(node.gateway.committedImage().scram().isEmpty());
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), describe(MALLORY, null).data().errorCode());
    }

    private void roundTripsAtEveryVersion(ApiKeys key, Function<Short, AbstractRequest> request) throws Exception {
        List<String> checked = new ArrayList<>();
        for (short version = key.oldestVersion(); version <= key.latestVersion(); version++) {
            for (Caller caller : List.of(ADMIN, MALLORY)) {
                AbstractResponse response = node.call(caller, request.apply(version));
                ByteBuffer bytes = RequestUtils.serialize(new ResponseHeaderData().setCorrelationId(7),
                        key.responseHeaderVersion(version), response.data(), version);
                AbstractResponse parsed = AbstractResponse.parseResponse(bytes,
                        new RequestHeader(key, version, "wire-test", 7));
                assertEquals(response.data(), parsed.data(), key + " v" + version + " as " + caller.principal());
                checked.add(key + " v" + version);
            }
        }
        assertTrue(checked.size() >= 2, checked.toString());
    }

    @Test
    void everyResponseRoundTripsAtEveryVersion() throws Exception {
        roundTripsAtEveryVersion(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, version ->
                new AlterUserScramCredentialsRequest.Builder(new AlterUserScramCredentialsRequestData()
                        .setUpsertions(List.of(upsert("alice", 8192)))).build(version));
        node.awaitImage(() -> !node.gateway.committedImage().scram().isEmpty());
        roundTripsAtEveryVersion(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS, version ->
                new DescribeUserScramCredentialsRequest.Builder(new DescribeUserScramCredentialsRequestData()
                        .setUsers(List.of(new UserName().setName("alice"), new UserName().setName("nobody"))))
                        .build(version));
    }
}

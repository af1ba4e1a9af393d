package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.node.admin.RequestLimits;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ScramCredentialDeletion;
import io.metaquorum.protocol.ScramCredentialInfo;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SCRAM RPCs over gRPC: AlterUserScramCredentials sent to node 2, a standby that forwards
 * it to node 1, the active controller; DescribeUserScramCredentials answered by node 1 from
 * its own committed image.
 */
class ScramEndpointTest {
    private static final byte[] SALT = {4, 5, 6, 7};

    private AdminTestNode controller;
    private AdminTestNode standby;

    @BeforeEach
    void start() throws Exception {
        controller = new AdminTestNode(1);
        standby = new AdminTestNode(2);
        AdminTestNode.serveActiveAndStandby(controller, standby);
    }

    @AfterEach
    void stop() throws Exception {
        standby.close();
        controller.close();
    }

    private static ScramCredentialUpsertion upsert(String user, ScramMechanism mechanism, int iterations) {
        return ScramCredentialUpsertion.newBuilder().setName(user).setMechanism(mechanism.type())
                .setIterations(iterations).setSalt(ByteString.copyFrom(SALT)).setSaltedPassword(ByteString.copyFrom(
                        ScramKeys.saltedPassword(mechanism, user + "-secret", SALT, iterations))).build();
    }

    private AlterUserScramCredentialsResponse alterThroughTheStandby(AlterUserScramCredentialsRequest request) {
        return standby.admin().alterUserScramCredentials(request);
    }

    private DescribeUserScramCredentialsResponse describeOnTheController(String... users) {
        return controller.admin().describeUserScramCredentials(DescribeUserScramCredentialsRequest.newBuilder()
                .addAllUsers(List.of(users)).build());
    }

    @Test
    void aForwardedUpsertionIsStoredAndDescribedAtItsCommitOffsetWithoutItsKeys() {
        AlterUserScramCredentialsResponse altered = alterThroughTheStandby(AlterUserScramCredentialsRequest
                .newBuilder().addUpsertions(upsert("alice", ScramMechanism.SCRAM_SHA_256, 8192))
                .addUpsertions(upsert("bob", ScramMechanism.SCRAM_SHA_512, 4096)).build());
        assertEquals(ErrorCode.NONE, altered.getHeader().getErrorCode(), altered.getHeader().getErrorMessage());
        assertEquals(List.of("alice", "bob"), altered.getResultsList().stream().map(r -> r.getUser()).toList());
        altered.getResultsList().forEach(r -> assertEquals(ErrorCode.NONE, r.getErrorCode(), r.getErrorMessage()));
        assertTrue(altered.getCommitOffset() >= 0);

        DescribeUserScramCredentialsResponse described = describeOnTheController();
        assertEquals(ErrorCode.NONE, described.getHeader().getErrorCode());
        assertTrue(described.getHeader().getMetadataOffset() >= altered.getCommitOffset());
        assertEquals(List.of("alice", "bob"), described.getResultsList().stream().map(r -> r.getUser()).toList());
        assertEquals(List.of(ScramCredentialInfo.newBuilder().setMechanism(1).setIterations(8192).build()),
                described.getResults(0).getCredentialInfosList());

        StoredScramCredential stored = controller.gateway.committedImage().scram()
                .credential("alice", ScramMechanism.SCRAM_SHA_256).orElseThrow();
        assertEquals(ScramKeys.credential(ScramMechanism.SCRAM_SHA_256, SALT, ScramKeys.saltedPassword(
                ScramMechanism.SCRAM_SHA_256, "alice-secret", SALT, 8192), 8192), stored);
    }

    @Test
    void perUserErrorsComeBackWithKafkasCodes() {
        AlterUserScramCredentialsResponse altered = alterThroughTheStandby(AlterUserScramCredentialsRequest
                .newBuilder().addDeletions(ScramCredentialDeletion.newBuilder().setName("ghost").setMechanism(1))
                .addUpsertions(upsert("alice", ScramMechanism.SCRAM_SHA_256, 100))
                .addUpsertions(upsert("carol", ScramMechanism.SCRAM_SHA_256, 4096).toBuilder().setMechanism(9))
                .build());
        assertEquals(ErrorCode.NONE, altered.getHeader().getErrorCode());
        assertEquals(List.of(ErrorCode.RESOURCE_NOT_FOUND, ErrorCode.UNACCEPTABLE_CREDENTIAL,
                ErrorCode.UNSUPPORTED_SASL_MECHANISM), altered.getResultsList().stream()
                .map(r -> r.getErrorCode()).toList());

        DescribeUserScramCredentialsResponse described = describeOnTheController("ghost", "ghost");
        assertEquals(ErrorCode.DUPLICATE_RESOURCE, described.getResults(0).getErrorCode());
        assertEquals(ErrorCode.RESOURCE_NOT_FOUND, describeOnTheController("ghost").getResults(0).getErrorCode());
    }

    @Test
    void aDeletionRemovesTheCredential() {
        alterThroughTheStandby(AlterUserScramCredentialsRequest.newBuilder()
                .addUpsertions(upsert("alice", ScramMechanism.SCRAM_SHA_256, 8192)).build());
        AlterUserScramCredentialsResponse deleted = alterThroughTheStandby(AlterUserScramCredentialsRequest
                .newBuilder().addDeletions(ScramCredentialDeletion.newBuilder().setName("alice").setMechanism(1))
                .build());
        assertEquals(ErrorCode.NONE, deleted.getResults(0).getErrorCode(), deleted.getResults(0).getErrorMessage());
        assertEquals(List.of(), describeOnTheController().getResultsList());
    }

    @Test
    void anOversizedSaltIsAnInvalidRequestForEveryUser() {
        AlterUserScramCredentialsResponse refused = alterThroughTheStandby(AlterUserScramCredentialsRequest
                .newBuilder().addUpsertions(upsert("alice", ScramMechanism.SCRAM_SHA_256, 8192).toBuilder()
                        .setSalt(ByteString.copyFrom(new byte[RequestLimits.SCRAM_BYTES_MAX + 1]))).build());
        assertEquals(ErrorCode.INVALID_REQUEST, refused.getHeader().getErrorCode());
        assertTrue(refused.getHeader().getErrorMessage().startsWith("upsertions[0].salt has "),
                refused.getHeader().getErrorMessage());
        assertEquals(ErrorCode.INVALID_REQUEST, refused.getResults(0).getErrorCode());
        assertEquals(-1, refused.getCommitOffset());
    }

    @Test
    void aStandbyThatKnowsNoControllerAnswersNotControllerForEveryUser() throws Exception {
        try (AdminTestNode alone = new AdminTestNode(3)) {
            alone.serve(java.util.Map.of());
            AlterUserScramCredentialsResponse response = alone.admin().alterUserScramCredentials(
                    AlterUserScramCredentialsRequest.newBuilder()
                            .addUpsertions(upsert("alice", ScramMechanism.SCRAM_SHA_256, 8192)).build());
            assertEquals(ErrorCode.NOT_CONTROLLER, response.getHeader().getErrorCode());
            assertEquals(ErrorCode.NOT_CONTROLLER, response.getResults(0).getErrorCode());
            assertEquals(-1, response.getCommitOffset());
        }
    }
}

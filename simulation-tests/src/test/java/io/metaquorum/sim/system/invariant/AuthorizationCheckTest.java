package io.metaquorum.sim.system.invariant;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.AlterUserScramCredentialsResult;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.security.Caller;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.workload.SimCallers;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The authorization check fed answers that agree with Kafka's StandardAuthorizer on an
 * image's ACLs (quiet) and answers that do not (firing by name, saying both decisions).
 */
class AuthorizationCheckTest {
    private static final Caller ADMIN = SimCallers.client(0);
    private static final Caller ALICE = SimCallers.client(1);
    private static final Caller BOB = SimCallers.client(2);

    /** Everyone may do everything on topic-*, except bob on topic-1* (a PREFIXED DENY); topics topic-0 and topic-10. */
    private static final MetadataImage IMAGE = image(
            acl(1, "topic-", PatternType.PREFIXED, "User:*", AclOperation.ALL, PermissionType.ALLOW),
            acl(2, "topic-1", PatternType.PREFIXED, "User:bob", AclOperation.ALL, PermissionType.DENY),
            topic(3, "topic-0"), topic(4, "topic-10"));

    private final AuthorizationCheck check = new AuthorizationCheck(SimCallers.settings(5));

    private static MetadataRecord acl(long id, String name, PatternType pattern, String principal,
                                      AclOperation operation, PermissionType permission) {
        return MetadataRecord.newBuilder().setAccessControlEntry(AccessControlEntryRecord.newBuilder()
                .setId(uuid(id)).setResourceType(ResourceType.TOPIC.code()).setResourceName(name)
                .setPatternType(pattern.code()).setPrincipal(principal).setHost("*")
                .setOperation(operation.code()).setPermissionType(permission.code())).build();
    }

    private static MetadataRecord topic(long id, String name) {
        return MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(uuid(id)))
                .build();
    }

    private static Uuid uuid(long n) {
        return Uuid.newBuilder().setMostSignificantBits(0xAC10_0000L + n).setLeastSignificantBits(n).build();
    }

    private static MetadataImage image(MetadataRecord... records) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 0;
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, 1);
        }
        return delta.apply();
    }

    private static DescribeTopicsResponse described(String name, ErrorCode code) {
        return DescribeTopicsResponse.newBuilder().setHeader(AdminResponseHeader.getDefaultInstance())
                .addTopics(DescribedTopic.newBuilder().setName(name).setErrorCode(code)).build();
    }

    private static ListTopicsResponse listed(String... names) {
        ListTopicsResponse.Builder out = ListTopicsResponse.newBuilder();
        for (String name : names) {
            out.addTopics(ListedTopic.newBuilder().setName(name));
        }
        return out.build();
    }

    private static CreateTopicsResponse created(String name, ErrorCode code, ErrorCode configCode) {
        return CreateTopicsResponse.newBuilder().addTopics(CreatableTopicResult.newBuilder().setName(name)
                .setErrorCode(code).setTopicConfigErrorCode(configCode)).build();
    }

    private static AuthorizationCheck.WriteDecision decidedOn(MetadataImage image) {
        AuthorizationCheck.WriteDecision decision = new AuthorizationCheck.WriteDecision();
        decision.decided(1, image);
        return decision;
    }

    private static CheckFailure assertFails(Executable run) {
        CheckFailure failure = assertThrows(CheckFailure.class, run);
        assertEquals(AuthorizationCheck.NAME, failure.invariant(), failure.getMessage());
        return failure;
    }

    @Test
    void aReadAgreesWithThePrefixedDeny() {
        assertDoesNotThrow(() -> check.read(2, BOB, "describe", described("topic-10",
                ErrorCode.TOPIC_AUTHORIZATION_FAILED), IMAGE));
        assertDoesNotThrow(() -> check.read(2, ALICE, "describe", described("topic-10", ErrorCode.NONE), IMAGE));
        assertDoesNotThrow(() -> check.read(2, ADMIN, "describe", described("topic-10", ErrorCode.NONE), IMAGE));
        CheckFailure failure = assertFails(() -> check.read(2, BOB, "describe", described("topic-10",
                ErrorCode.NONE), IMAGE));
        assertTrue(failure.getMessage().contains("node 2 answered describe of User:bob from 192.0.2.12: topic "
                + "'topic-10' is ALLOWED in the answer, but Kafka's StandardAuthorizer DENIES DESCRIBE on TOPIC "
                + "'topic-10'"), failure.getMessage());
        assertTrue(failure.getMessage().contains("metaquorum's authorizer: DENIED"), failure.getMessage());
        assertEquals(4, check.judged());
        assertEquals(2, check.denied());
    }

    @Test
    void aListingHoldsExactlyWhatTheCallerMayDescribe() {
        assertDoesNotThrow(() -> check.read(1, BOB, "list", listed("topic-0"), IMAGE));
        assertDoesNotThrow(() -> check.read(1, ALICE, "list", listed("topic-0", "topic-10"), IMAGE));
        assertFails(() -> check.read(1, BOB, "list", listed("topic-0", "topic-10"), IMAGE));
        assertFails(() -> check.read(1, ALICE, "list", listed("topic-0"), IMAGE));
        assertFails(() -> check.read(1, ALICE, "list", listed("topic-0", "topic-10", "topic-2"), IMAGE));
    }

    @Test
    void aWriteIsJudgedOnTheImageItWasDecidedOn() {
        assertDoesNotThrow(() -> check.write(3, BOB, "create", created("topic-11", ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                ErrorCode.NONE), decidedOn(IMAGE)));
        assertDoesNotThrow(() -> check.write(3, ALICE, "create", created("topic-11", ErrorCode.NONE, ErrorCode.NONE),
                decidedOn(IMAGE)));
        assertFails(() -> check.write(3, BOB, "create", created("topic-11", ErrorCode.TOPIC_ALREADY_EXISTS,
                ErrorCode.NONE), decidedOn(IMAGE)));
        // Created, but its configs hidden from a caller who may DESCRIBE_CONFIGS it.
        assertFails(() -> check.write(3, ALICE, "create", created("topic-11", ErrorCode.NONE,
                ErrorCode.TOPIC_AUTHORIZATION_FAILED), decidedOn(IMAGE)));
        // No ACL at all: denied by default.
        assertDoesNotThrow(() -> check.write(3, ALICE, "create", created("topic-11",
                ErrorCode.TOPIC_AUTHORIZATION_FAILED, ErrorCode.NONE), decidedOn(image(topic(3, "topic-0")))));
    }

    @Test
    void anAnswerNoControllerDecidedCannotClaimADenial() {
        AuthorizationCheck.WriteDecision none = new AuthorizationCheck.WriteDecision();
        assertDoesNotThrow(() -> check.write(3, ALICE, "create", created("topic-11", ErrorCode.NOT_CONTROLLER,
                ErrorCode.NONE), none));
        assertFails(() -> check.write(3, ALICE, "create", created("topic-11", ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                ErrorCode.NONE), none));
        // A routing answer after a decision says nothing about it.
        assertDoesNotThrow(() -> check.write(3, BOB, "create", created("topic-11", ErrorCode.NOT_CONTROLLER,
                ErrorCode.NONE), decidedOn(IMAGE)));
    }

    @Test
    void onlyAnImageNotLoadedRefusesThoseWhoAreNotSuperUsers() {
        DescribeTopicsResponse notReady = DescribeTopicsResponse.newBuilder().setHeader(AdminResponseHeader
                .newBuilder().setErrorCode(ErrorCode.AUTHORIZER_NOT_READY)).build();
        assertDoesNotThrow(() -> check.read(1, ALICE, "describe", notReady, MetadataImage.EMPTY));
        assertFails(() -> check.read(1, ADMIN, "describe", notReady, MetadataImage.EMPTY));
        assertFails(() -> check.read(1, ALICE, "describe", notReady, IMAGE));
    }

    private static AlterUserScramCredentialsResponse scramAnswer(ErrorCode code) {
        return AlterUserScramCredentialsResponse.newBuilder().addResults(AlterUserScramCredentialsResult.newBuilder()
                .setUser("carol").setErrorCode(code)).build();
    }

    @Test
    void aScramWriteIsRefusedExactlyWithoutAlterOnTheCluster() {
        assertDoesNotThrow(() -> check.write(1, ALICE, "scram", scramAnswer(ErrorCode.CLUSTER_AUTHORIZATION_FAILED),
                decidedOn(IMAGE)));
        assertDoesNotThrow(() -> check.write(1, ADMIN, "scram", scramAnswer(ErrorCode.NONE), decidedOn(IMAGE)));
        assertFails(() -> check.write(1, BOB, "scram", scramAnswer(ErrorCode.NONE), decidedOn(IMAGE)));
        assertFails(() -> check.write(1, ADMIN, "scram", scramAnswer(ErrorCode.CLUSTER_AUTHORIZATION_FAILED),
                decidedOn(IMAGE)));
    }
}

package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.acl.AccessControlEntry;
import io.metaquorum.metadata.acl.AclBinding;
import io.metaquorum.metadata.acl.AclBindingFilter;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourcePattern;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.acl.StoredAcl;
import io.metaquorum.metadata.controller.AclControlManager.CreateAclsResult;
import io.metaquorum.metadata.controller.AclControlManager.DeleteAclsFilterResult;
import io.metaquorum.metadata.controller.AclControlManager.DeleteAclsResult;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** CreateAcls and DeleteAcls as the controller decides them: rules, no-ops, ids, the delete limit. */
class AclControlManagerTest {
    private final ControllerFixture fixture = new ControllerFixture();

    static AclBinding acl(ResourceType type, String name, PatternType pattern, String principal,
                          AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", operation, PermissionType.ALLOW));
    }

    static AclBinding topicRead(String topic, String principal) {
        return acl(ResourceType.TOPIC, topic, PatternType.LITERAL, principal, AclOperation.READ);
    }

    private CreateAclsResult create(AclBinding... acls) {
        return fixture.apply(fixture.acls.createAcls(List.of(acls), fixture.nextOffset()));
    }

    private ApiError refusal(AclBinding acl) {
        ControllerResult<CreateAclsResult> result = fixture.acls.createAcls(List.of(acl), fixture.nextOffset());
        assertEquals(List.of(), result.records(), "a refused ACL writes nothing");
        return result.response().results().get(0);
    }

    private static void assertInvalid(ApiError error, String messagePart) {
        assertEquals(ErrorCode.INVALID_REQUEST, error.code(), error.toString());
        assertTrue(error.message().contains(messagePart), error.message());
    }

    @Test
    void eachRuleRefusesWithInvalidRequestAndSaysWhy() {
        assertInvalid(refusal(acl(ResourceType.UNKNOWN, "t", PatternType.LITERAL, "User:a", AclOperation.READ)),
                "resource type UNKNOWN");
        assertInvalid(refusal(acl(ResourceType.ANY, "t", PatternType.LITERAL, "User:a", AclOperation.READ)),
                "resource type ANY");
        assertInvalid(refusal(acl(ResourceType.TOPIC, "t", PatternType.MATCH, "User:a", AclOperation.READ)),
                "pattern type MATCH is for filters only");
        assertInvalid(refusal(acl(ResourceType.TOPIC, "t", PatternType.ANY, "User:a", AclOperation.READ)),
                "pattern type ANY");
        assertInvalid(refusal(acl(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:a", AclOperation.ANY)),
                "operation ANY is for filters only");
        assertInvalid(refusal(acl(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:a", AclOperation.UNKNOWN)),
                "operation UNKNOWN");
        assertInvalid(refusal(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                new AccessControlEntry("User:a", "*", AclOperation.READ, PermissionType.ANY))), "permission type ANY");
        assertInvalid(refusal(topicRead("", "User:a")), "resource name is empty");
        assertInvalid(refusal(acl(ResourceType.CLUSTER, "c1", PatternType.LITERAL, "User:a", AclOperation.ALTER)),
                "named kafka-cluster");
        assertInvalid(refusal(acl(ResourceType.GROUP, "g", PatternType.LITERAL, "User:a", AclOperation.WRITE)),
                "The operation WRITE does not apply to a GROUP; it takes ALL, READ, DELETE, DESCRIBE");
        assertInvalid(refusal(acl(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:a",
                AclOperation.READ)), "does not apply to a CLUSTER");
        assertInvalid(refusal(topicRead("t", "alice")), "is not TYPE:NAME");
        assertInvalid(refusal(topicRead("t", "User:")), "is not TYPE:NAME");
        assertInvalid(refusal(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                new AccessControlEntry("User:a", "", AclOperation.READ, PermissionType.ALLOW))), "host is empty");
    }

    @Test
    void validAclsOfEveryKindAreWrittenAndEachCreationIsAnsweredOnItsOwn() {
        CreateAclsResult result = create(topicRead("orders", "User:alice"),
                acl(ResourceType.GROUP, "g", PatternType.PREFIXED, "User:*", AclOperation.ALL),
                acl(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:ops", AclOperation.ALTER),
                acl(ResourceType.GROUP, "g", PatternType.LITERAL, "User:a", AclOperation.WRITE));
        assertEquals(List.of(ErrorCode.NONE, ErrorCode.NONE, ErrorCode.NONE, ErrorCode.INVALID_REQUEST),
                result.results().stream().map(ApiError::code).toList());
        assertEquals(3, fixture.image().acls().byId().size());
        assertEquals(2, result.commitOffset(), "the third record is at offset 2");
    }

    @Test
    void anIdenticalAclSucceedsAndWritesNothing() {
        create(topicRead("orders", "User:alice"));
        ControllerResult<CreateAclsResult> again = fixture.acls.createAcls(List.of(topicRead("orders", "User:alice"),
                topicRead("orders", "User:bob"), topicRead("orders", "User:bob")), fixture.nextOffset());
        assertEquals(List.of(ApiError.NONE, ApiError.NONE, ApiError.NONE), again.response().results());
        assertEquals(1, again.records().size(), "only bob's ACL, once, is new");
        assertEquals(fixture.nextOffset(), again.response().commitOffset());

        ControllerResult<CreateAclsResult> nothing = fixture.acls.createAcls(List.of(topicRead("orders", "User:alice")),
                fixture.nextOffset());
        assertEquals(List.of(), nothing.records());
        assertEquals(fixture.nextOffset() - 1, nothing.response().commitOffset(),
                "a write of nothing holds at the log end it was decided on");
    }

    @Test
    void anAclsIdIsAFunctionOfItsOffset() {
        create(topicRead("a", "User:x"), topicRead("b", "User:x"));
        List<MetadataRecord> log = fixture.log;
        assertEquals(AclIds.atOffset(0), log.get(0).getAccessControlEntry().getId());
        assertEquals(AclIds.atOffset(1), log.get(1).getAccessControlEntry().getId());
    }

    @Test
    void idsAreUniqueNeverZeroAndNeverPrintWithALeadingDash() {
        TreeSet<String> seen = new TreeSet<>();
        for (long offset = 0; offset < 100_000; offset++) {
            Uuid id = AclIds.atOffset(offset);
            String text = TopicIds.toBase64(id);
            assertTrue(seen.add(text), "offset " + offset + " repeats id " + text);
            assertFalse(text.startsWith("-"), text);
            assertFalse(id.equals(TopicIds.ZERO));
        }
    }

    @Test
    void twoReplaysOfTheSameRequestsWriteTheSameLogBitForBit() {
        List<MetadataRecord> first = script(new ControllerFixture());
        List<MetadataRecord> second = script(new ControllerFixture());
        assertEquals(first, second);
        assertEquals(first.stream().map(MetadataRecord::toByteString).toList(),
                second.stream().map(MetadataRecord::toByteString).toList());
    }

    private static List<MetadataRecord> script(ControllerFixture f) {
        f.apply(f.acls.createAcls(List.of(topicRead("a", "User:x"), topicRead("b", "User:y")), f.nextOffset()));
        f.apply(f.acls.deleteAcls(List.of(new AclBindingFilter(ResourceType.TOPIC, Optional.of("a"),
                PatternType.LITERAL, Optional.empty(), Optional.empty(), AclOperation.ANY, PermissionType.ANY)),
                f.nextOffset()));
        f.apply(f.acls.createAcls(List.of(topicRead("a", "User:x")), f.nextOffset()));
        return new ArrayList<>(f.log);
    }

    @Test
    void deleteAnswersEachFilterWithItsMatchesAndRemovesEachAclOnce() {
        create(topicRead("orders", "User:alice"), topicRead("orders", "User:bob"), topicRead("payments", "User:bob"));
        AclBindingFilter orders = new AclBindingFilter(ResourceType.TOPIC, Optional.of("orders"), PatternType.MATCH,
                Optional.empty(), Optional.empty(), AclOperation.ANY, PermissionType.ANY);
        AclBindingFilter bob = new AclBindingFilter(ResourceType.ANY, Optional.empty(), PatternType.ANY,
                Optional.of("User:bob"), Optional.empty(), AclOperation.ANY, PermissionType.ANY);
        ControllerResult<DeleteAclsResult> result = fixture.acls.deleteAcls(List.of(orders, bob), fixture.nextOffset());
        assertEquals(3, result.records().size(), "bob's orders ACL is matched twice and removed once");
        List<DeleteAclsFilterResult> answers = result.response().results();
        assertEquals(List.of("User:alice", "User:bob"), principals(answers.get(0).deleted()));
        assertEquals(List.of("User:bob", "User:bob"), principals(answers.get(1).deleted()));
        fixture.apply(result);
        assertEquals(0, fixture.image().acls().byId().size());
        assertEquals(fixture.nextOffset() - 1, result.response().commitOffset());
    }

    private static List<String> principals(List<StoredAcl> acls) {
        return acls.stream().map(a -> a.binding().entry().principal()).toList();
    }

    @Test
    void aFilterWithAnUnknownFieldIsRefusedAndTheOthersStillDelete() {
        create(topicRead("orders", "User:alice"));
        AclBindingFilter unknown = new AclBindingFilter(ResourceType.TOPIC, Optional.empty(), PatternType.UNKNOWN,
                Optional.empty(), Optional.empty(), AclOperation.ANY, PermissionType.ANY);
        ControllerResult<DeleteAclsResult> result = fixture.acls.deleteAcls(List.of(unknown, AclBindingFilter.ANY),
                fixture.nextOffset());
        assertInvalid(result.response().results().get(0).error(), "pattern type is UNKNOWN");
        assertEquals(ApiError.NONE, result.response().results().get(1).error());
        assertEquals(1, result.records().size());
    }

    @Test
    void deletingMoreThanTheLimitIsRefusedWholeWritesNothingAndNamesTheLimit() {
        int count = AclControlManager.DELETE_ACLS_MATCHES_MAX + 1;
        List<AclBinding> many = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            many.add(topicRead("t" + i, "User:x"));
        }
        fixture.apply(fixture.acls.createAcls(many, fixture.nextOffset()));
        MetadataImage before = fixture.image();
        AclBindingFilter unknown = new AclBindingFilter(ResourceType.UNKNOWN, Optional.empty(), PatternType.ANY,
                Optional.empty(), Optional.empty(), AclOperation.ANY, PermissionType.ANY);

        ControllerResult<DeleteAclsResult> refused = fixture.acls.deleteAcls(List.of(AclBindingFilter.ANY, unknown),
                fixture.nextOffset());
        assertEquals(List.of(), refused.records());
        assertEquals(AclControlManager.NO_COMMIT, refused.response().commitOffset());
        ApiError limit = refused.response().results().get(0).error();
        assertInvalid(limit, "The filters match " + count + " ACLs; one DeleteAcls deletes at most "
                + AclControlManager.DELETE_ACLS_MATCHES_MAX + " (DELETE_ACLS_MATCHES_MAX), so none was deleted.");
        assertEquals(List.of(), refused.response().results().get(0).deleted());
        assertInvalid(refused.response().results().get(1).error(), "resource type is UNKNOWN");
        fixture.apply(refused);
        assertEquals(before, fixture.image());

        fixture.apply(fixture.acls.deleteAcls(List.of(AclBindingFilter.exactly(many.get(0))), fixture.nextOffset()));
        ControllerResult<DeleteAclsResult> atTheLimit = fixture.acls.deleteAcls(List.of(AclBindingFilter.ANY),
                fixture.nextOffset());
        assertEquals(AclControlManager.DELETE_ACLS_MATCHES_MAX, atTheLimit.records().size());
        assertEquals(ApiError.NONE, atTheLimit.response().results().get(0).error());
    }
}

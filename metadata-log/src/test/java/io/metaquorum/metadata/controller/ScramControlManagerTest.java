package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.controller.ScramControlManager.AlterResult;
import io.metaquorum.metadata.controller.ScramControlManager.Deletion;
import io.metaquorum.metadata.controller.ScramControlManager.Upsertion;
import io.metaquorum.metadata.controller.ScramControlManager.UserResult;
import io.metaquorum.metadata.controller.ScramDescriptions.CredentialInfo;
import io.metaquorum.metadata.controller.ScramDescriptions.UserDescription;
import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.protocol.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** AlterUserScramCredentials as the controller decides it, and DescribeUserScramCredentials on its image. */
class ScramControlManagerTest {
    private static final int SHA_256 = ScramMechanism.SCRAM_SHA_256.type();
    private static final int SHA_512 = ScramMechanism.SCRAM_SHA_512.type();
    private static final ByteString SALT = ByteString.copyFrom("salt", StandardCharsets.UTF_8);
    private static final ByteString SALTED = ByteString.copyFrom(ScramKeys.saltedPassword(
            ScramMechanism.SCRAM_SHA_256, "secret", SALT.toByteArray(), 4096));

    private final ControllerFixture fixture = new ControllerFixture();

    private static Upsertion upsert(String user, int mechanism, int iterations) {
        return new Upsertion(user, mechanism, iterations, SALT, SALTED);
    }

    private AlterResult alter(List<Deletion> deletions, List<Upsertion> upsertions) {
        return fixture.apply(fixture.scram.alterCredentials(deletions, upsertions, fixture.nextOffset()));
    }

    private static void assertError(UserResult result, String user, ErrorCode code, String message) {
        assertEquals(user, result.user());
        assertEquals(ApiError.of(code, message), result.error());
    }

    @Test
    void anUpsertionStoresTheKeysDerivedFromTheSaltedPasswordNeverThePasswordItself() {
        AlterResult result = alter(List.of(), List.of(upsert("alice", SHA_256, 8192)));
        assertEquals(List.of(new UserResult("alice", ApiError.NONE)), result.results());
        assertEquals(0, result.commitOffset());
        StoredScramCredential stored = fixture.image().scram().credential("alice", ScramMechanism.SCRAM_SHA_256)
                .orElseThrow();
        assertEquals(ScramKeys.credential(ScramMechanism.SCRAM_SHA_256, SALT.toByteArray(), SALTED.toByteArray(),
                8192), stored);
        assertArrayEquals(SALT.toByteArray(), stored.salt());
        assertTrue(fixture.log.get(0).getUserScramCredential().toString().indexOf(SALTED.toStringUtf8()) < 0);
    }

    @Test
    void eachBadAlterationGetsKafkasCodeAndMessageAndWritesNothing() {
        ControllerResult<AlterResult> result = fixture.scram.alterCredentials(
                List.of(new Deletion("", SHA_256), new Deletion("carol", 7), new Deletion("dave", SHA_256)),
                List.of(upsert("", SHA_256, 8192), upsert("erin", 0, 8192), upsert("frank", SHA_256, 4095),
                        upsert("gina", SHA_512, 16385), new Upsertion("hal", SHA_256, 8192, ByteString.EMPTY, SALTED),
                        new Upsertion("ivy", SHA_256, 8192, SALT, ByteString.EMPTY)),
                fixture.nextOffset());
        assertEquals(List.of(), result.records());
        List<UserResult> results = result.response().results();
        assertError(results.get(0), "", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        assertError(results.get(1), "carol", ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        assertError(results.get(2), "dave", ErrorCode.RESOURCE_NOT_FOUND,
                "Attempt to delete a user credential that does not exist");
        assertError(results.get(3), "erin", ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        assertError(results.get(4), "frank", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
        assertError(results.get(5), "gina", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
        assertError(results.get(6), "hal", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Salt must not be empty");
        assertError(results.get(7), "ivy", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Salted password must not be empty");
        assertEquals(8, results.size(), "the empty user named twice has one result");
    }

    @Test
    void aUserAlteredTwiceIsADuplicateAndNothingOfItIsDoneWhileOthersAre() {
        alter(List.of(), List.of(upsert("alice", SHA_256, 8192), upsert("bob", SHA_256, 8192)));
        ControllerResult<AlterResult> result = fixture.scram.alterCredentials(
                List.of(new Deletion("alice", SHA_256), new Deletion("bob", SHA_256), new Deletion("bob", SHA_512)),
                List.of(upsert("alice", SHA_512, 4096), upsert("carol", SHA_256, 4096),
                        upsert("dave", SHA_256, 4096), upsert("dave", SHA_512, 4096)),
                fixture.nextOffset());
        assertEquals(1, result.records().size(), "only carol's upsertion is written");
        List<UserResult> results = result.response().results();
        assertEquals(new UserResult("carol", ApiError.NONE), results.get(0));
        String duplicate = "A user credential cannot be altered twice in the same request";
        assertError(results.get(1), "bob", ErrorCode.DUPLICATE_RESOURCE, duplicate);
        assertError(results.get(2), "alice", ErrorCode.DUPLICATE_RESOURCE, duplicate);
        assertError(results.get(3), "dave", ErrorCode.DUPLICATE_RESOURCE, duplicate);
    }

    @Test
    void deletionsThenUpsertionsAreWrittenAndAnsweredInThatOrder() {
        alter(List.of(), List.of(upsert("alice", SHA_256, 8192)));
        AlterResult result = alter(List.of(new Deletion("alice", SHA_256)), List.of(upsert("bob", SHA_512, 4096)));
        assertEquals(List.of(new UserResult("alice", ApiError.NONE), new UserResult("bob", ApiError.NONE)),
                result.results());
        assertEquals(2, result.commitOffset());
        assertTrue(fixture.log.get(1).hasRemoveUserScramCredential());
        assertEquals(List.of("bob"), fixture.image().scram().users());
    }

    @Test
    void describeAnswersEveryUserOrTheNamedOnesWithKafkasErrors() {
        alter(List.of(), List.of(upsert("bob", SHA_512, 4096), upsert("alice", SHA_256, 8192)));
        alter(List.of(), List.of(upsert("alice", SHA_512, 10000)));
        List<UserDescription> all = ScramDescriptions.describe(fixture.image().scram(), List.of());
        assertEquals(List.of(
                new UserDescription("alice", ApiError.NONE, List.of(
                        new CredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192),
                        new CredentialInfo(ScramMechanism.SCRAM_SHA_512, 10000))),
                new UserDescription("bob", ApiError.NONE, List.of(
                        new CredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096)))), all);
        List<UserDescription> named = ScramDescriptions.describe(fixture.image().scram(),
                List.of("bob", "zed", "alice", "alice"));
        assertEquals(3, named.size());
        assertEquals("bob", named.get(0).user());
        assertEquals(ApiError.of(ErrorCode.RESOURCE_NOT_FOUND,
                "Attempt to describe a user credential that does not exist: zed"), named.get(1).error());
        assertEquals(ApiError.of(ErrorCode.DUPLICATE_RESOURCE,
                "Cannot describe SCRAM credentials for the same user twice in a single request: alice"),
                named.get(2).error());
        assertEquals(List.of(), named.get(2).credentials());
    }
}

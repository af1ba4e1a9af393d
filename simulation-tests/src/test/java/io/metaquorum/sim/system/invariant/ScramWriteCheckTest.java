package io.metaquorum.sim.system.invariant;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.AlterUserScramCredentialsResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RemoveUserScramCredentialRecord;
import io.metaquorum.protocol.ScramCredentialDeletion;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import io.metaquorum.protocol.UserScramCredentialRecord;
import io.metaquorum.security.Caller;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.workload.ScramCall;
import io.metaquorum.sim.system.workload.SimCallers;
import org.junit.jupiter.api.Test;

/** {@link ScramWriteCheck} on good and bad SCRAM write answers and committed logs. */
class ScramWriteCheckTest {
    private static final ByteString SALT = ByteString.copyFromUtf8("salt");
    private static final Caller ADMIN = new Caller(SimCallers.ADMIN, SimCallers.ADMIN_HOST);

    private static ScramCredentialUpsertion upsert(String user, int mechanism, int iterations) {
        return ScramCredentialUpsertion.newBuilder().setName(user).setMechanism(mechanism).setIterations(iterations)
                .setSalt(SALT).setSaltedPassword(ByteString.copyFromUtf8("salted")).build();
    }

    private static ScramCredentialDeletion delete(String user, int mechanism) {
        return ScramCredentialDeletion.newBuilder().setName(user).setMechanism(mechanism).build();
    }

    private static AlterUserScramCredentialsResponse answer(long commitOffset, Object... userAndCode) {
        AlterUserScramCredentialsResponse.Builder out = AlterUserScramCredentialsResponse.newBuilder()
                .setCommitOffset(commitOffset);
        for (int i = 0; i < userAndCode.length; i += 2) {
            out.addResults(AlterUserScramCredentialsResult.newBuilder().setUser((String) userAndCode[i])
                    .setErrorCode((ErrorCode) userAndCode[i + 1]));
        }
        return out.build();
    }

    private static MetadataRecord stored(String user, int mechanism, int iterations) {
        return MetadataRecord.newBuilder().setUserScramCredential(UserScramCredentialRecord.newBuilder().setName(user)
                .setMechanism(mechanism).setIterations(iterations).setSalt(SALT)).build();
    }

    private static MetadataRecord removed(String user, int mechanism) {
        return MetadataRecord.newBuilder().setRemoveUserScramCredential(RemoveUserScramCredentialRecord.newBuilder()
                .setName(user).setMechanism(mechanism)).build();
    }

    private static ScramCall call(AlterUserScramCredentialsRequest.Builder request) {
        return new ScramCall(ADMIN, request.build());
    }

    private static String failure(Runnable check) {
        return assertThrows(CheckFailure.class, check::run).invariant();
    }

    @Test
    void answersByTheRulesPassAndTheirCommittedRecordsAreFound() {
        ScramWriteCheck check = new ScramWriteCheck();
        check.observe(stored("bob", 2, 8192), 7);
        check.observe(removed("bob", 2), 10);
        check.observe(stored("alice", 1, 4096), 11);
        check.observe(stored("alice", 1, 5000), 12); // a later write, beyond the answer's commit offset
        ScramCall call = call(AlterUserScramCredentialsRequest.newBuilder().addDeletions(delete("bob", 2))
                .addDeletions(delete("dave", 1)).addUpsertions(upsert("alice", 1, 4096))
                .addUpsertions(upsert("carol", 1, 4095)).addUpsertions(upsert("erin", 1, 20_000))
                .addUpsertions(upsert("frank", 9, 4096)));
        assertDoesNotThrow(() -> check.answer(1, call, answer(11, "bob", ErrorCode.NONE, "alice", ErrorCode.NONE,
                "dave", ErrorCode.RESOURCE_NOT_FOUND, "carol", ErrorCode.UNACCEPTABLE_CREDENTIAL,
                "erin", ErrorCode.UNACCEPTABLE_CREDENTIAL, "frank", ErrorCode.UNSUPPORTED_SASL_MECHANISM)));
        assertEquals(2, check.requireCommitted());
        assertEquals(6, check.judged());
    }

    @Test
    void aUserNamedTwiceIsADuplicateUnlessItsFirstEntryFailsAlone() {
        ScramWriteCheck check = new ScramWriteCheck();
        ScramCall twice = call(AlterUserScramCredentialsRequest.newBuilder().addDeletions(delete("bob", 1))
                .addUpsertions(upsert("bob", 2, 4096)).addUpsertions(upsert("carol", 1, 100))
                .addUpsertions(upsert("carol", 2, 4096)));
        assertDoesNotThrow(() -> check.answer(1, twice, answer(3, "bob", ErrorCode.DUPLICATE_RESOURCE,
                "carol", ErrorCode.UNACCEPTABLE_CREDENTIAL)));
        assertDoesNotThrow(() -> check.answer(1, twice, answer(3, "bob", ErrorCode.RESOURCE_NOT_FOUND,
                "carol", ErrorCode.UNACCEPTABLE_CREDENTIAL)));
        assertEquals(ScramWriteCheck.ANSWER, failure(() -> check.answer(1, twice, answer(3,
                "bob", ErrorCode.NONE, "carol", ErrorCode.UNACCEPTABLE_CREDENTIAL))));
        assertEquals(ScramWriteCheck.ANSWER, failure(() -> check.answer(1, twice, answer(3,
                "bob", ErrorCode.DUPLICATE_RESOURCE, "carol", ErrorCode.DUPLICATE_RESOURCE))));
        assertEquals(0, check.acknowledged());
    }

    @Test
    void answersAgainstTheRulesFail() {
        ScramWriteCheck check = new ScramWriteCheck();
        ScramCall call = call(AlterUserScramCredentialsRequest.newBuilder().addUpsertions(upsert("alice", 1, 4095))
                .addUpsertions(upsert("bob", 2, 16_384)));
        assertEquals(ScramWriteCheck.ANSWER, failure(() -> check.answer(1, call, answer(5,
                "alice", ErrorCode.NONE, "bob", ErrorCode.NONE))), "too few iterations acknowledged");
        assertEquals(ScramWriteCheck.ANSWER, failure(() -> check.answer(1, call, answer(5,
                "alice", ErrorCode.UNACCEPTABLE_CREDENTIAL, "bob", ErrorCode.UNACCEPTABLE_CREDENTIAL))));
        assertEquals(ScramWriteCheck.ANSWER, failure(() -> check.answer(1, call, answer(5,
                "alice", ErrorCode.UNACCEPTABLE_CREDENTIAL))), "a user left out");
        assertEquals(ScramWriteCheck.ANSWER, failure(() -> check.answer(1, call, answer(5,
                "alice", ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "bob", ErrorCode.NONE))), "a partial refusal");
        assertDoesNotThrow(() -> check.answer(1, call, answer(-1, "alice", ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
                "bob", ErrorCode.CLUSTER_AUTHORIZATION_FAILED)));
        assertDoesNotThrow(() -> check.answer(1, call, answer(-1, "alice", ErrorCode.NOT_CONTROLLER,
                "bob", ErrorCode.NOT_CONTROLLER)), "routing decides nothing");
    }

    @Test
    void anAcknowledgedUpsertionMissingOrDifferentInTheLogFails() {
        ScramCall call = call(AlterUserScramCredentialsRequest.newBuilder().addUpsertions(upsert("alice", 1, 4096)));
        ScramWriteCheck missing = new ScramWriteCheck();
        missing.observe(stored("alice", 1, 4096), 9); // committed after the offset the answer claims
        missing.answer(1, call, answer(8, "alice", ErrorCode.NONE));
        assertEquals(ScramWriteCheck.COMMITTED, failure(missing::requireCommitted));
        ScramWriteCheck other = new ScramWriteCheck();
        other.observe(stored("alice", 1, 4097), 8);
        other.answer(1, call, answer(8, "alice", ErrorCode.NONE));
        CheckFailure failure = assertThrows(CheckFailure.class, other::requireCommitted);
        assertEquals(ScramWriteCheck.COMMITTED, failure.invariant());
        assertTrue(failure.getMessage().contains("4097 iterations"), failure.getMessage());
        ScramWriteCheck otherMechanism = new ScramWriteCheck();
        otherMechanism.observe(stored("alice", 2, 4096), 8);
        otherMechanism.answer(1, call, answer(8, "alice", ErrorCode.NONE));
        assertEquals(ScramWriteCheck.COMMITTED, failure(otherMechanism::requireCommitted));
    }

    @Test
    void anAcknowledgedDeletionNeedsItsRemovalOfAnExistingCredential() {
        ScramCall call = call(AlterUserScramCredentialsRequest.newBuilder().addDeletions(delete("bob", 2)));
        ScramWriteCheck never = new ScramWriteCheck();
        never.observe(removed("bob", 2), 4);
        never.answer(1, call, answer(4, "bob", ErrorCode.NONE));
        assertEquals(ScramWriteCheck.COMMITTED, failure(never::requireCommitted), "deleted what did not exist");
        ScramWriteCheck kept = new ScramWriteCheck();
        kept.observe(stored("bob", 2, 4096), 3);
        kept.answer(1, call, answer(4, "bob", ErrorCode.NONE));
        assertEquals(ScramWriteCheck.COMMITTED, failure(kept::requireCommitted), "no removal committed");
        ScramWriteCheck good = new ScramWriteCheck();
        good.observe(stored("bob", 2, 4096), 3);
        good.observe(removed("bob", 2), 4);
        good.answer(1, call, answer(4, "bob", ErrorCode.NONE));
        assertEquals(1, good.requireCommitted());
    }
}

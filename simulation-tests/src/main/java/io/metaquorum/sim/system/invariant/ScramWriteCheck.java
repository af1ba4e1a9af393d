package io.metaquorum.sim.system.invariant;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.AlterUserScramCredentialsResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.ScramCredentialDeletion;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.workload.ScramCall;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The SCRAM credential writes' answers, judged two ways.
 *
 * <p>{@value #ANSWER}, as each answer is given: the answer names every user of the request
 * exactly once; CLUSTER_AUTHORIZATION_FAILED, when given, is given for every user (the node
 * refuses the whole request; whether it had to is {@code AuthorizationCheck}'s question); and
 * every decided code (NONE, DUPLICATE_RESOURCE, UNACCEPTABLE_CREDENTIAL,
 * UNSUPPORTED_SASL_MECHANISM, RESOURCE_NOT_FOUND) is one the controller's rules
 * ({@code ScramControlManager}) allow for that user, whatever the state: a user's first entry is
 * checked alone (an unknown mechanism is UNSUPPORTED_SASL_MECHANISM; iterations outside
 * 4096..16384 UNACCEPTABLE_CREDENTIAL; a deletion NONE or RESOURCE_NOT_FOUND, which depends on
 * the state); if it passes and the user is named again, DUPLICATE_RESOURCE; else its first
 * failure. Codes that decide nothing (routing, timeouts) are left alone.
 *
 * <p>{@value #COMMITTED}, at the end of the run: every user answered NONE has its record in the
 * committed log, as the last record of that user and mechanism at or below the answer's commit
 * offset (the offset of the write's last record, so no later write sits in between): an
 * upsertion's UserScramCredentialRecord with its iterations and salt; a deletion's
 * RemoveUserScramCredentialRecord, right after a UserScramCredentialRecord of that credential
 * (a deletion answered NONE had the credential). Every node's image at that offset equals the
 * replay ({@code image-matches-replay}), so each node's ScramImage holds the same.
 */
public final class ScramWriteCheck {
    public static final String ANSWER = "scram-answer-by-rule";
    public static final String COMMITTED = "acknowledged-scram-write-committed";
    private static final Set<ErrorCode> DECIDED = EnumSet.of(ErrorCode.NONE, ErrorCode.DUPLICATE_RESOURCE,
            ErrorCode.UNACCEPTABLE_CREDENTIAL, ErrorCode.UNSUPPORTED_SASL_MECHANISM, ErrorCode.RESOURCE_NOT_FOUND);
    private static final int REMOVED = -1;

    /** One committed record of a credential: an upsertion's iterations and salt, or a removal. */
    private record Written(int iterations, ByteString salt) {
        @Override
        public String toString() {
            return iterations == REMOVED ? "a RemoveUserScramCredentialRecord"
                    : "a UserScramCredentialRecord of " + iterations + " iterations";
        }
    }

    /** A user answered NONE: what must be committed at or below {@code commitOffset}. */
    private record Acknowledged(int nodeId, ScramCall call, String user, int mechanism, Written written,
                                long commitOffset) {
    }

    /** By "user/mechanism": the committed records by offset. */
    private final TreeMap<String, TreeMap<Long, Written>> committed = new TreeMap<>();
    private final List<Acknowledged> acknowledged = new ArrayList<>();
    private long judged;

    /** Fed every committed metadata record in log order. */
    public void observe(MetadataRecord record, long offset) {
        if (record.hasUserScramCredential()) {
            var r = record.getUserScramCredential();
            history(r.getName(), r.getMechanism()).put(offset, new Written(r.getIterations(), r.getSalt()));
        } else if (record.hasRemoveUserScramCredential()) {
            var r = record.getRemoveUserScramCredential();
            history(r.getName(), r.getMechanism()).put(offset, new Written(REMOVED, ByteString.EMPTY));
        }
    }

    private TreeMap<Long, Written> history(String user, int mechanism) {
        return committed.computeIfAbsent(user + "/" + mechanism, k -> new TreeMap<>());
    }

    /** Users' decided answers judged by the rules. */
    public long judged() {
        return judged;
    }

    /** Users answered NONE. */
    public long acknowledged() {
        return acknowledged.size();
    }

    /** Node {@code nodeId} answered {@code call} with {@code response}: judged now, its NONEs kept for the end. */
    public void answer(int nodeId, ScramCall call, AlterUserScramCredentialsResponse response) {
        AlterUserScramCredentialsRequest request = call.request();
        TreeSet<String> named = users(request);
        TreeSet<String> answered = new TreeSet<>();
        boolean denied = false;
        for (AlterUserScramCredentialsResult result : response.getResultsList()) {
            if (!answered.add(result.getUser()) || !named.contains(result.getUser())) {
                throw fail(ANSWER, nodeId, call, response, "user '" + result.getUser() + "' is answered twice or "
                        + "was not named");
            }
            denied |= result.getErrorCode() == ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
        }
        if (!answered.equals(named)) {
            throw fail(ANSWER, nodeId, call, response, "the answer names " + answered + ", the request " + named);
        }
        for (AlterUserScramCredentialsResult result : response.getResultsList()) {
            ErrorCode code = result.getErrorCode();
            if (denied && code != ErrorCode.CLUSTER_AUTHORIZATION_FAILED) {
                throw fail(ANSWER, nodeId, call, response, "user '" + result.getUser() + "' is answered " + code
                        + " beside CLUSTER_AUTHORIZATION_FAILED, which refuses the whole request");
            }
            if (!DECIDED.contains(code)) {
                continue;
            }
            judged++;
            Set<ErrorCode> allowed = allowed(request, result.getUser());
            if (!allowed.contains(code)) {
                throw fail(ANSWER, nodeId, call, response, "user '" + result.getUser() + "' is answered " + code
                        + ", where the controller's rules allow " + allowed);
            }
            if (code == ErrorCode.NONE) {
                acknowledged.add(acknowledgedOf(nodeId, call, result.getUser(), response.getCommitOffset()));
            }
        }
    }

    private static TreeSet<String> users(AlterUserScramCredentialsRequest request) {
        TreeSet<String> users = new TreeSet<>();
        request.getDeletionsList().forEach(d -> users.add(d.getName()));
        request.getUpsertionsList().forEach(u -> users.add(u.getName()));
        return users;
    }

    /** The codes the controller's rules allow {@code user}, whatever the state (deletions first, as it reads them). */
    static Set<ErrorCode> allowed(AlterUserScramCredentialsRequest request, String user) {
        List<Object> entries = new ArrayList<>();
        request.getDeletionsList().stream().filter(d -> d.getName().equals(user)).forEach(entries::add);
        request.getUpsertionsList().stream().filter(u -> u.getName().equals(user)).forEach(entries::add);
        Set<ErrorCode> own = entries.get(0) instanceof ScramCredentialDeletion d ? deletion(d)
                : upsertion((ScramCredentialUpsertion) entries.get(0));
        Set<ErrorCode> allowed = EnumSet.noneOf(ErrorCode.class);
        for (ErrorCode code : own) {
            allowed.add(code == ErrorCode.NONE && entries.size() > 1 ? ErrorCode.DUPLICATE_RESOURCE : code);
        }
        return allowed;
    }

    private static Set<ErrorCode> deletion(ScramCredentialDeletion deletion) {
        if (deletion.getName().isEmpty()) {
            return EnumSet.of(ErrorCode.UNACCEPTABLE_CREDENTIAL);
        }
        return ScramMechanism.fromType(deletion.getMechanism()).isEmpty()
                ? EnumSet.of(ErrorCode.UNSUPPORTED_SASL_MECHANISM)
                : EnumSet.of(ErrorCode.NONE, ErrorCode.RESOURCE_NOT_FOUND);
    }

    private static Set<ErrorCode> upsertion(ScramCredentialUpsertion u) {
        if (u.getName().isEmpty()) {
            return EnumSet.of(ErrorCode.UNACCEPTABLE_CREDENTIAL);
        }
        if (ScramMechanism.fromType(u.getMechanism()).isEmpty()) {
            return EnumSet.of(ErrorCode.UNSUPPORTED_SASL_MECHANISM);
        }
        boolean acceptable = u.getIterations() >= ScramMechanism.ITERATIONS_MIN
                && u.getIterations() <= ScramMechanism.ITERATIONS_MAX && !u.getSalt().isEmpty()
                && !u.getSaltedPassword().isEmpty();
        return EnumSet.of(acceptable ? ErrorCode.NONE : ErrorCode.UNACCEPTABLE_CREDENTIAL);
    }

    /** A user answered NONE was named once (else it would be DUPLICATE_RESOURCE). */
    private static Acknowledged acknowledgedOf(int nodeId, ScramCall call, String user, long commitOffset) {
        for (ScramCredentialDeletion d : call.request().getDeletionsList()) {
            if (d.getName().equals(user)) {
                return new Acknowledged(nodeId, call, user, d.getMechanism(), new Written(REMOVED, ByteString.EMPTY),
                        commitOffset);
            }
        }
        ScramCredentialUpsertion u = call.request().getUpsertionsList().stream()
                .filter(x -> x.getName().equals(user)).findFirst().orElseThrow();
        return new Acknowledged(nodeId, call, user, u.getMechanism(), new Written(u.getIterations(), u.getSalt()),
                commitOffset);
    }

    /** At the end: every user answered NONE has its record committed; returns how many were checked. */
    public int requireCommitted() {
        for (Acknowledged ack : acknowledged) {
            TreeMap<Long, Written> history = committed.getOrDefault(ack.user() + "/" + ack.mechanism(),
                    new TreeMap<>());
            Map.Entry<Long, Written> last = history.floorEntry(ack.commitOffset());
            String what = (ack.written().iterations() == REMOVED ? "deletion" : "upsertion") + " of " + ack.user()
                    + "'s credential of mechanism " + ack.mechanism() + " (" + ack.written() + ") answered NONE by node "
                    + ack.nodeId() + " at commit offset " + ack.commitOffset() + " to " + ack.call().caller();
            if (last == null || !last.getValue().equals(ack.written())) {
                throw new CheckFailure(COMMITTED, what + ", but the committed log's last record of that credential at"
                        + " or below that offset is " + (last == null ? "none" : last.getValue() + " at "
                        + last.getKey()));
            }
            if (ack.written().iterations() == REMOVED) {
                Map.Entry<Long, Written> before = history.lowerEntry(last.getKey());
                if (before == null || before.getValue().iterations() == REMOVED) {
                    throw new CheckFailure(COMMITTED, what + ", but the credential did not exist before its removal"
                            + " at " + last.getKey());
                }
            }
        }
        return acknowledged.size();
    }

    private static CheckFailure fail(String name, int nodeId, ScramCall call, AlterUserScramCredentialsResponse response,
                                     String what) {
        return new CheckFailure(name, "node " + nodeId + " answered AlterUserScramCredentials of " + call.caller()
                + ": " + what + "; request: " + describe(call.request()) + "; answer: " + response.getResultsList()
                .stream().map(r -> r.getUser() + " " + r.getErrorCode()).toList());
    }

    /** The request without its salts and salted passwords. */
    static String describe(AlterUserScramCredentialsRequest request) {
        List<String> parts = new ArrayList<>();
        request.getDeletionsList().forEach(d -> parts.add("delete " + d.getName() + "/" + d.getMechanism()));
        request.getUpsertionsList().forEach(u -> parts.add("upsert " + u.getName() + "/" + u.getMechanism() + " x"
                + u.getIterations()));
        return parts.toString();
    }
}

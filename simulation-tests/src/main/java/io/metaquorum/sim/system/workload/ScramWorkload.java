package io.metaquorum.sim.system.workload;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.ScramCredentialDeletion;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import io.metaquorum.security.Caller;
import java.util.List;
import java.util.Random;

/**
 * The seeded SCRAM credential writes: AlterUserScramCredentials over a small catalog of users
 * (alice, bob, carol) and both mechanisms (SCRAM-SHA-256, SCRAM-SHA-512). Each write names
 * one to three users: mostly upsertions with iterations in Kafka's range, some with too few or
 * too many (UNACCEPTABLE_CREDENTIAL), deletions (of credentials that may or may not exist), now
 * and then an unknown mechanism (UNSUPPORTED_SASL_MECHANISM) and, one write in six, a user named
 * twice (DUPLICATE_RESOURCE, unless its first entry fails on its own). Salts and salted
 * passwords are bytes drawn from the random source. Most writes are the admin's (a super
 * user); some are alice's or bob's, refused with CLUSTER_AUTHORIZATION_FAILED unless an ACL
 * lets them ALTER the cluster.
 *
 * <p>Deterministic: every choice comes from the given random source.
 */
public final class ScramWorkload {
    static final List<String> USERS = List.of("alice", "bob", "carol");
    /** A mechanism type no SCRAM mechanism has. */
    static final int UNKNOWN_MECHANISM = 7;
    private static final int SALT_BYTES = 16;

    private final Random random;

    public ScramWorkload(Random random) {
        this.random = random;
    }

    /** The next write with its caller: one to three distinct users, and sometimes one of them named again. */
    public ScramCall next() {
        Caller caller = caller();
        AlterUserScramCredentialsRequest.Builder request = AlterUserScramCredentialsRequest.newBuilder();
        int first = random.nextInt(USERS.size());
        int count = 1 + random.nextInt(USERS.size());
        for (int i = 0; i < count; i++) {
            add(request, USERS.get((first + i) % USERS.size()));
        }
        if (random.nextInt(6) == 0) {
            add(request, USERS.get(first));
        }
        return new ScramCall(caller, request.build());
    }

    private void add(AlterUserScramCredentialsRequest.Builder request, String user) {
        int mechanism = mechanism();
        if (random.nextInt(100) < 30) {
            request.addDeletions(ScramCredentialDeletion.newBuilder().setName(user).setMechanism(mechanism));
            return;
        }
        request.addUpsertions(ScramCredentialUpsertion.newBuilder().setName(user).setMechanism(mechanism)
                .setIterations(iterations()).setSalt(bytes(SALT_BYTES)).setSaltedPassword(bytes(keyBytes(mechanism))));
    }

    private int mechanism() {
        int pick = random.nextInt(40);
        return pick == 0 ? UNKNOWN_MECHANISM
                : pick % 2 == 0 ? ScramMechanism.SCRAM_SHA_256.type() : ScramMechanism.SCRAM_SHA_512.type();
    }

    /** In Kafka's range four times in five; else too few or too many. */
    private int iterations() {
        int pick = random.nextInt(10);
        if (pick < 8) {
            return ScramMechanism.ITERATIONS_MIN
                    + random.nextInt(ScramMechanism.ITERATIONS_MAX - ScramMechanism.ITERATIONS_MIN + 1);
        }
        return pick == 8 ? 1 + random.nextInt(ScramMechanism.ITERATIONS_MIN - 1)
                : ScramMechanism.ITERATIONS_MAX + 1 + random.nextInt(ScramMechanism.ITERATIONS_MAX);
    }

    private static int keyBytes(int mechanism) {
        return ScramMechanism.fromType(mechanism).map(ScramMechanism::keyBytes).orElse(32);
    }

    private ByteString bytes(int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return ByteString.copyFrom(bytes);
    }

    /** Mostly the admin; alice or bob one write in five. */
    private Caller caller() {
        int pick = random.nextInt(10);
        return pick < 8 ? new Caller(SimCallers.ADMIN, SimCallers.ADMIN_HOST)
                : pick == 8 ? new Caller(SimCallers.ALICE, SimCallers.ALICE_HOST)
                : new Caller(SimCallers.BOB, SimCallers.BOB_HOST);
    }
}

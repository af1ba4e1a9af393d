package io.metaquorum.cli;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ScramCredentialDeletion;
import io.metaquorum.protocol.ScramCredentialInfo;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * {@code mq-configs --entity-type users}: SCRAM credentials as kafka-configs.sh handles them.
 * {@code --add-config 'SCRAM-SHA-256=[iterations=8192,password=SECRET]'} (iterations default
 * 4096) salts the password here with random bytes and sends only the salted password;
 * {@code --delete-config SCRAM-SHA-256} removes the credential; {@code --describe} prints
 * each user's mechanisms and iterations in kafka-configs.sh's line.
 */
final class UserScramConfigs {
    /** Bytes of the salt drawn for each upsertion. */
    static final int SALT_BYTES = 32;

    private UserScramConfigs() {
    }

    static AlterUserScramCredentialsRequest alteration(String user, Map<String, String> added, List<String> deleted,
                                                       RandomGenerator random) {
        AlterUserScramCredentialsRequest.Builder request = AlterUserScramCredentialsRequest.newBuilder();
        for (Map.Entry<String, String> entry : added.entrySet()) {
            ScramMechanism mechanism = mechanism(entry.getKey());
            int iterations = ScramMechanism.ITERATIONS_MIN;
            String password = null;
            for (String setting : entry.getValue().split(",")) {
                int equals = setting.indexOf('=');
                String key = equals < 0 ? setting.trim() : setting.substring(0, equals).trim();
                String value = equals < 0 ? "" : setting.substring(equals + 1);
                if (key.equals("iterations")) {
                    iterations = iterations(value);
                } else if (key.equals("password")) {
                    password = value;
                } else {
                    throw invalid(entry.getKey() + " takes iterations=N and password=SECRET, not '" + key + "'.");
                }
            }
            if (password == null || password.isEmpty()) {
                throw invalid(entry.getKey() + " needs password=SECRET.");
            }
            byte[] salt = new byte[SALT_BYTES];
            random.nextBytes(salt);
            request.addUpsertions(ScramCredentialUpsertion.newBuilder().setName(user).setMechanism(mechanism.type())
                    .setIterations(iterations).setSalt(ByteString.copyFrom(salt)).setSaltedPassword(ByteString.copyFrom(
                            ScramKeys.saltedPassword(mechanism, password, salt, iterations))));
        }
        for (String name : deleted) {
            request.addDeletions(ScramCredentialDeletion.newBuilder().setName(user)
                    .setMechanism(mechanism(name).type()));
        }
        return request.build();
    }

    /** kafka-configs.sh's line for a user's credentials. */
    static String describe(DescribeUserScramCredentialsResult user) {
        List<String> infos = new ArrayList<>();
        for (ScramCredentialInfo info : user.getCredentialInfosList()) {
            String name = ScramMechanism.fromType(info.getMechanism()).map(ScramMechanism::mechanismName)
                    .orElse("UNKNOWN");
            infos.add(name + "=iterations=" + info.getIterations());
        }
        return "SCRAM credential configs for user-principal '" + user.getUser() + "' are " + String.join(", ", infos);
    }

    private static ScramMechanism mechanism(String name) {
        return ScramMechanism.fromMechanismName(name).orElseThrow(() -> invalid("'" + name + "' is not a user config "
                + "this tool sets; SCRAM-SHA-256 and SCRAM-SHA-512 are."));
    }

    private static int iterations(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw invalid("iterations must be a number, not '" + text + "'.");
        }
    }

    private static AdminError invalid(String message) {
        return new AdminError(ErrorCode.INVALID_CONFIG, message);
    }
}

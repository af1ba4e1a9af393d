package io.metaquorum.server;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.UserScramCredentialRecord;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The {@value #FLAG} arguments of {@code mq-storage format}, with Kafka's syntax:
 * {@code MECHANISM=[name=NAME,password=PASSWORD]} or
 * {@code MECHANISM=[name=NAME,salt=BASE64,saltedpassword=BASE64]}, each optionally with
 * {@code iterations=N} (default {@value #ITERATIONS_DEFAULT}, within Kafka's bounds). A value may
 * be in double quotes. A password is salted here with a random salt unless {@code salt} is
 * given; the credential becomes a UserScramCredentialRecord, and the password goes no further.
 * A bad argument is an {@link IllegalArgumentException} naming the flag.
 */
public final class ScramArguments {
    public static final String FLAG = "--add-scram";
    /** Iterations when none are given: Kafka's default, the least it accepts. */
    public static final int ITERATIONS_DEFAULT = 4_096;
    /** Bytes of a salt made here. */
    static final int SALT_BYTES = 32;

    private ScramArguments() {
    }

    /** The records of every argument, in order; {@code random} makes the salts not given. */
    public static List<MetadataRecord> parse(List<String> arguments, RandomGenerator random) {
        List<MetadataRecord> records = new ArrayList<>(arguments.size());
        for (String argument : arguments) {
            records.add(MetadataRecord.newBuilder().setUserScramCredential(parse(argument, random)).build());
        }
        return records;
    }

    static UserScramCredentialRecord parse(String argument, RandomGenerator random) {
        String text = argument.trim();
        int equals = text.indexOf('=');
        if (equals < 0) {
            throw bad(argument, "expected MECHANISM=[name=...,password=...]");
        }
        String mechanismName = text.substring(0, equals);
        ScramMechanism mechanism = ScramMechanism.fromMechanismName(mechanismName).orElseThrow(() -> bad(argument,
                "unknown mechanism '" + mechanismName + "'; SCRAM-SHA-256 or SCRAM-SHA-512"));
        String body = text.substring(equals + 1);
        if (!body.startsWith("[") || !body.endsWith("]")) {
            throw bad(argument, "the settings after " + mechanismName + "= must be in [ ]");
        }
        TreeMap<String, String> settings = settings(argument, body.substring(1, body.length() - 1));
        String name = settings.remove("name");
        if (name == null || name.isEmpty()) {
            throw bad(argument, "'name' is required");
        }
        Optional<byte[]> salt = Optional.ofNullable(settings.remove("salt")).map(s -> base64(argument, "salt", s));
        int iterations = iterations(argument, settings.remove("iterations"));
        String password = settings.remove("password");
        String saltedPassword = settings.remove("saltedpassword");
        if (!settings.isEmpty()) {
            throw bad(argument, "unknown settings " + settings.keySet() + "; name, password, salt, saltedpassword "
                    + "and iterations are known");
        }
        byte[] saltBytes = salt.orElseGet(() -> randomSalt(random));
        byte[] salted;
        if (password != null && saltedPassword != null) {
            throw bad(argument, "give 'password' or 'saltedpassword', not both");
        } else if (password != null) {
            if (password.isEmpty()) {
                throw bad(argument, "'password' must not be empty");
            }
            salted = ScramKeys.saltedPassword(mechanism, password, saltBytes, iterations);
        } else if (saltedPassword != null) {
            if (salt.isEmpty()) {
                throw bad(argument, "'saltedpassword' needs 'salt'");
            }
            salted = base64(argument, "saltedpassword", saltedPassword);
        } else {
            throw bad(argument, "'password' or 'saltedpassword' is required");
        }
        if (saltBytes.length == 0 || salted.length == 0) {
            throw bad(argument, "'salt' and 'saltedpassword' must not be empty");
        }
        StoredScramCredential credential = ScramKeys.credential(mechanism, saltBytes, salted, iterations);
        return UserScramCredentialRecord.newBuilder().setName(name).setMechanism(mechanism.type())
                .setSalt(ByteString.copyFrom(saltBytes)).setStoredKey(ByteString.copyFrom(credential.storedKey()))
                .setServerKey(ByteString.copyFrom(credential.serverKey())).setIterations(iterations).build();
    }

    private static TreeMap<String, String> settings(String argument, String body) {
        TreeMap<String, String> settings = new TreeMap<>();
        String[] parts = body.split(",");
        for (int i = 0; i < parts.length; i++) {
            String setting = parts[i];
            int equals = setting.indexOf('=');
            if (equals < 0) {
                // Not the text itself: a password with a comma in it would be split here.
                throw bad(argument, "setting " + (i + 1) + " is not KEY=VALUE (a comma cannot be part of a value)");
            }
            String key = setting.substring(0, equals).trim();
            String value = setting.substring(equals + 1);
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            if (settings.put(key, value) != null) {
                throw bad(argument, "'" + key + "' given twice");
            }
        }
        return settings;
    }

    private static int iterations(String argument, String text) {
        if (text == null) {
            return ITERATIONS_DEFAULT;
        }
        int iterations;
        try {
            iterations = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw bad(argument, "'iterations' must be a number, not '" + text + "'");
        }
        if (iterations < ScramMechanism.ITERATIONS_MIN || iterations > ScramMechanism.ITERATIONS_MAX) {
            throw bad(argument, "'iterations' must be within " + ScramMechanism.ITERATIONS_MIN + " and "
                    + ScramMechanism.ITERATIONS_MAX + ", not " + iterations);
        }
        return iterations;
    }

    private static byte[] base64(String argument, String key, String value) {
        try {
            return Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw bad(argument, "'" + key + "' is not base64");
        }
    }

    private static byte[] randomSalt(RandomGenerator random) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return salt;
    }

    /** The message never repeats the argument: it may hold a password. */
    private static IllegalArgumentException bad(String argument, String why) {
        String mechanism = argument.contains("=") ? argument.substring(0, argument.indexOf('=')).trim() : "?";
        return new IllegalArgumentException(FLAG + " " + mechanism + "=[...]: " + why);
    }
}

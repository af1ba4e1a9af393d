package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.protocol.UserScramCredentialRecord;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@code mq-storage format --add-scram} arguments: Kafka's syntax, defaults and refusals. */
class ScramArgumentsTest {
    private static final byte[] SALT = "pepper".getBytes(StandardCharsets.UTF_8);
    private static final String SALT_BASE64 = Base64.getEncoder().encodeToString(SALT);

    private static UserScramCredentialRecord parse(String argument) {
        return ScramArguments.parse(argument, new SplittableRandom(1));
    }

    private static String refusal(String argument) {
        return assertThrows(IllegalArgumentException.class, () -> parse(argument)).getMessage();
    }

    @Test
    void aPasswordIsSaltedWithARandomSaltAndDefaultIterations() {
        UserScramCredentialRecord record = parse("SCRAM-SHA-256=[name=alice,password=alice-secret]");
        assertEquals("alice", record.getName());
        assertEquals(1, record.getMechanism());
        assertEquals(4096, record.getIterations());
        assertEquals(ScramArguments.SALT_BYTES, record.getSalt().size());
        byte[] salt = record.getSalt().toByteArray();
        assertArrayEquals(ScramKeys.credential(ScramMechanism.SCRAM_SHA_256, salt, ScramKeys.saltedPassword(
                ScramMechanism.SCRAM_SHA_256, "alice-secret", salt, 4096), 4096).storedKey(),
                record.getStoredKey().toByteArray());
        assertNotEquals(record.getSalt(), ScramArguments.parse("SCRAM-SHA-256=[name=alice,password=alice-secret]",
                new SplittableRandom(2)).getSalt(), "each format draws its own salt");
    }

    @Test
    void quotesIterationsSaltAndSaltedPasswordAreKafkas() {
        UserScramCredentialRecord quoted = parse("SCRAM-SHA-512=[name=\"bob\",password=\"bob\",iterations=8192]");
        assertEquals("bob", quoted.getName());
        assertEquals(2, quoted.getMechanism());
        assertEquals(8192, quoted.getIterations());
        byte[] salted = ScramKeys.saltedPassword(ScramMechanism.SCRAM_SHA_512, "pw", SALT, 4096);
        UserScramCredentialRecord given = parse("SCRAM-SHA-512=[name=carol,salt=\"" + SALT_BASE64
                + "\",saltedpassword=" + Base64.getEncoder().encodeToString(salted) + "]");
        assertArrayEquals(SALT, given.getSalt().toByteArray());
        assertArrayEquals(ScramKeys.serverKey(ScramMechanism.SCRAM_SHA_512, salted),
                given.getServerKey().toByteArray());
        UserScramCredentialRecord withSalt = parse("SCRAM-SHA-512=[name=carol,salt=" + SALT_BASE64 + ",password=pw]");
        assertEquals(given, withSalt, "a given salt and its password give the record of their salted password");
    }

    @Test
    void badArgumentsAreRefusedNamingTheFlagWithoutThePassword() {
        List<String> bad = List.of(
                "SCRAM-SHA-256",
                "SCRAM-SHA-1=[name=a,password=hunter2]",
                "SCRAM-SHA-256=name=a,password=hunter2",
                "SCRAM-SHA-256=[password=hunter2]",
                "SCRAM-SHA-256=[name=a]",
                "SCRAM-SHA-256=[name=a,password=hunter2,iterations=4095]",
                "SCRAM-SHA-256=[name=a,password=hunter2,iterations=16385]",
                "SCRAM-SHA-256=[name=a,password=hunter2,iterations=many]",
                "SCRAM-SHA-256=[name=a,saltedpassword=aHVudGVyMg==]",
                "SCRAM-SHA-256=[name=a,salt=%%%,password=hunter2]",
                "SCRAM-SHA-256=[name=a,password=hunter2,colour=blue]",
                "SCRAM-SHA-256=[name=a,password=hunter2,password=hunter3]",
                "SCRAM-SHA-256=[name=a,hunter2]");
        for (String argument : bad) {
            String message = refusal(argument);
            assertTrue(message.startsWith("--add-scram "), message);
            assertFalse(message.contains("hunter"), "the password is not echoed: " + message);
        }
        assertEquals("--add-scram SCRAM-SHA-256=[...]: 'iterations' must be within 4096 and 16384, not 4095",
                refusal("SCRAM-SHA-256=[name=a,password=hunter2,iterations=4095]"));
        assertEquals("--add-scram SCRAM-SHA-1=[...]: unknown mechanism 'SCRAM-SHA-1'; SCRAM-SHA-256 or SCRAM-SHA-512",
                refusal("SCRAM-SHA-1=[name=a,password=hunter2]"));
    }
}

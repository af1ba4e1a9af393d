package io.metaquorum.metadata.scram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;

/**
 * Our RFC 5802 derivations give exactly what Kafka's {@code ScramFormatter} gives, so a
 * credential stored by metaquorum authenticates a Kafka client and the reverse.
 */
class ScramKeysPropertyTest {
    private static ScramFormatter kafka(ScramMechanism mechanism) throws Exception {
        return new ScramFormatter(org.apache.kafka.common.security.scram.internals.ScramMechanism
                .forMechanismName(mechanism.mechanismName()));
    }

    @Property(tries = 200)
    void storedAndServerKeysAreKafkas(@ForAll ScramMechanism mechanism,
                                      @ForAll @Size(min = 1, max = 80) byte[] saltedPassword) throws Exception {
        ScramFormatter kafka = kafka(mechanism);
        assertArrayEquals(kafka.clientKey(saltedPassword), ScramKeys.clientKey(mechanism, saltedPassword));
        assertArrayEquals(kafka.storedKey(kafka.clientKey(saltedPassword)),
                ScramKeys.storedKey(mechanism, ScramKeys.clientKey(mechanism, saltedPassword)));
        assertArrayEquals(kafka.serverKey(saltedPassword), ScramKeys.serverKey(mechanism, saltedPassword));
    }

    @Property(tries = 30)
    void saltedPasswordIsKafkasHi(@ForAll ScramMechanism mechanism, @ForAll @StringLength(min = 1, max = 30) String password,
                                  @ForAll @Size(min = 1, max = 40) byte[] salt,
                                  @ForAll @IntRange(min = 1, max = 300) int iterations) throws Exception {
        assertArrayEquals(kafka(mechanism).saltedPassword(password, salt, iterations),
                ScramKeys.saltedPassword(mechanism, password, salt, iterations));
    }

    @Property(tries = 20)
    void aWholeCredentialIsKafkas(@ForAll ScramMechanism mechanism, @ForAll @StringLength(min = 1, max = 20) String password,
                                  @ForAll @Size(min = 1, max = 32) byte[] salt) throws Exception {
        int iterations = ScramMechanism.ITERATIONS_MIN;
        var expected = kafka(mechanism).generateCredential(salt, kafka(mechanism).saltedPassword(password, salt,
                iterations), iterations);
        StoredScramCredential ours = ScramKeys.credential(mechanism, salt,
                ScramKeys.saltedPassword(mechanism, password, salt, iterations), iterations);
        assertArrayEquals(expected.storedKey(), ours.storedKey());
        assertArrayEquals(expected.serverKey(), ours.serverKey());
        assertArrayEquals(expected.salt(), ours.salt());
    }
}

package io.metaquorum.server.kafka;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import org.apache.kafka.common.security.plain.PlainAuthenticateCallback;

/**
 * Answers Kafka's PLAIN server: whether a user name and password are one of the listener's
 * configured users. The password is compared in constant time, and an unknown user is
 * compared against a placeholder all the same, so the time taken tells no one which users
 * exist or how much of a password was right.
 */
final class PlainUsers implements CallbackHandler {
    /** Compared against when the user is unknown; no password can equal it and be accepted. */
    private static final byte[] NO_PASSWORD = new byte[32];

    private final Map<String, String> passwords;

    PlainUsers(Map<String, String> passwords) {
        this.passwords = passwords;
    }

    @Override
    public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
        String user = null;
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                user = name.getDefaultName();
            } else if (callback instanceof PlainAuthenticateCallback authenticate) {
                authenticate.authenticated(user != null && matches(user, authenticate.password()));
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }

    private boolean matches(String user, char[] given) {
        String expected = passwords.get(user);
        byte[] givenBytes = utf8(given);
        byte[] expectedBytes = expected == null ? NO_PASSWORD : expected.getBytes(StandardCharsets.UTF_8);
        try {
            return MessageDigest.isEqual(givenBytes, expectedBytes) && expected != null;
        } finally {
            Arrays.fill(givenBytes, (byte) 0);
        }
    }

    private static byte[] utf8(char[] chars) {
        ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(chars));
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }
}

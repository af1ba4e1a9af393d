package io.metaquorum.security;

import java.util.Locale;

/** {@code ssl.client.auth}: whether a TLS listener asks its clients for a certificate. */
public enum ClientAuthMode {
    /** No client certificate is asked for: every TLS client is {@code User:ANONYMOUS}. */
    NONE,
    /** Asked for; a client without one is {@code User:ANONYMOUS}, one that presents an untrusted one is refused. */
    REQUESTED,
    /** A client without a trusted certificate is refused during the handshake. */
    REQUIRED;

    public static final String KEY = "ssl.client.auth";

    /** Parses Kafka's value ({@code none}, {@code requested}, {@code required}); throws naming the key. */
    public static ClientAuthMode parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "none" -> NONE;
            case "requested" -> REQUESTED;
            case "required" -> REQUIRED;
            default -> throw new SslConfigError(KEY, "expected one of [none, requested, required], got '" + text + "'");
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}

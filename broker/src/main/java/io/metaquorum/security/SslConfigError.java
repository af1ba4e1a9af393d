package io.metaquorum.security;

/**
 * A TLS setting that cannot be used, naming the key at fault so that the caller can report it
 * as its own configuration error (a node's start-up, a tool's {@code --command-config}).
 */
public final class SslConfigError extends IllegalArgumentException {
    private final String key;

    public SslConfigError(String key, String message) {
        super(key + ": " + message);
        this.key = key;
    }

    public SslConfigError(String key, String message, Throwable cause) {
        super(key + ": " + message, cause);
        this.key = key;
    }

    public String key() {
        return key;
    }

    /** The message without the key in front. */
    public String reason() {
        return getMessage().substring(key.length() + 2);
    }
}

package io.metaquorum.server;

/**
 * A configuration that cannot be used: an unknown key, a value of the wrong type, a missing
 * required key or values that contradict each other. The message is one line that starts
 * with the key and is printed as is before start-up stops.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String key;

    /** The message reads {@code key: problem}. */
    public ConfigException(String key, String problem) {
        this(key, key + ": " + problem, true);
    }

    private ConfigException(String key, String message, boolean unused) {
        super(message);
        this.key = key;
    }

    /** For a message that already names {@code key} (a relation checked elsewhere). */
    public static ConfigException withMessage(String key, String message) {
        return new ConfigException(key, message, true);
    }

    /** The configuration key the problem is about. */
    public String key() {
        return key;
    }
}

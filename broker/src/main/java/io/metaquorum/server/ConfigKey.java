package io.metaquorum.server;

/**
 * One known configuration key.
 *
 * @param defaultValue the text used when the key is absent; null when it has none
 * @param required     start-up stops without it (keys required only for some roles are
 *                     checked by {@link ServerConfig})
 */
public record ConfigKey(String name, ConfigType type, String defaultValue, boolean required) {
    public static ConfigKey required(String name, ConfigType type) {
        return new ConfigKey(name, type, null, true);
    }

    public static ConfigKey optional(String name, ConfigType type) {
        return new ConfigKey(name, type, null, false);
    }

    public static ConfigKey withDefault(String name, ConfigType type, String defaultValue) {
        return new ConfigKey(name, type, defaultValue, false);
    }
}

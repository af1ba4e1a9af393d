package io.metaquorum.server;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.JaasContext;

/**
 * Reads a {@code listener.name.<listener>.<mechanism>.sasl.jaas.config} value with Kafka's own
 * JAAS parser, so a Kafka operator's line means the same here: one login module, {@code
 * required} or another flag, its options as {@code name="value"} pairs. For PLAIN the options
 * {@code user_<name>="<password>"} are the listener's users.
 */
final class JaasUsers {
    static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    static final String SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";
    private static final String USER_OPTION_PREFIX = "user_";

    private JaasUsers() {
    }

    /** PLAIN's users by name; throws {@link ConfigException} naming {@code key} when the line names none. */
    static Map<String, String> plainUsers(String key, String listenerName, String text) {
        AppConfigurationEntry entry = entry(key, listenerName, "PLAIN", text, PLAIN_LOGIN_MODULE);
        Map<String, String> users = new TreeMap<>();
        for (Map.Entry<String, ?> option : entry.getOptions().entrySet()) {
            if (option.getKey().startsWith(USER_OPTION_PREFIX)) {
                String user = option.getKey().substring(USER_OPTION_PREFIX.length());
                if (user.isEmpty()) {
                    throw new ConfigException(key, "option 'user_' names no user");
                }
                users.put(user, String.valueOf(option.getValue()));
            }
        }
        if (users.isEmpty()) {
            throw new ConfigException(key, "names no user: PLAIN's users are options user_NAME=\"PASSWORD\", e.g. "
                    + PLAIN_LOGIN_MODULE + " required user_NAME=\"PASSWORD\";");
        }
        return users;
    }

    /** Checks that a SCRAM mechanism's line names Kafka's SCRAM login module. */
    static void checkScramModule(String key, String listenerName, String mechanism, String text) {
        entry(key, listenerName, mechanism, text, SCRAM_LOGIN_MODULE);
    }

    private static AppConfigurationEntry entry(String key, String listenerName, String mechanism, String text,
                                               String loginModule) {
        List<AppConfigurationEntry> entries;
        try {
            String prefixed = mechanism.toLowerCase(java.util.Locale.ROOT) + "." + SaslListenerConfig.JAAS_CONFIG_SUFFIX;
            entries = JaasContext.loadServerContext(new ListenerName(listenerName), mechanism,
                    Map.of(prefixed, new Password(text))).configurationEntries();
        } catch (IllegalArgumentException | KafkaException | SecurityException e) {
            // Kafka's parser reports the position, never the value, so no password reaches the log.
            throw new ConfigException(key, "is not a JAAS configuration Kafka can read: " + e.getMessage());
        }
        AppConfigurationEntry entry = entries.get(0);
        if (!entry.getLoginModuleName().equals(loginModule)) {
            throw new ConfigException(key, "names login module " + entry.getLoginModuleName() + "; " + mechanism
                    + " takes " + loginModule);
        }
        return entry;
    }
}

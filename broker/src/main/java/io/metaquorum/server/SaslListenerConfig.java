package io.metaquorum.server;

import io.metaquorum.server.kafka.SaslListenerSettings;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SASL keys, in Kafka's names, against the Kafka-protocol listeners that map to
 * SASL_PLAINTEXT or SASL_SSL: each such listener gets its {@link SaslListenerSettings}, or
 * start-up stops naming the key at fault.
 *
 * <p>A listener's mechanisms are {@code listener.name.<listener>.sasl.enabled.mechanisms}, else
 * {@code sasl.enabled.mechanisms}. Neither set is an error: Kafka's default, GSSAPI, is not
 * served here, and guessing another would open a listener the operator did not describe.
 * PLAIN's users are the {@code user_<name>="<password>"} options of
 * {@code listener.name.<listener>.plain.sasl.jaas.config} ({@link JaasUsers}). A
 * {@code listener.name.*} key that names no SASL listener of this node is refused, so a typo
 * in a listener name cannot leave a listener without the users it was meant to have.
 */
final class SaslListenerConfig {
    static final String LISTENER_PREFIX = "listener.name.";
    static final String ENABLED_MECHANISMS_SUFFIX = "sasl.enabled.mechanisms";
    static final String JAAS_CONFIG_SUFFIX = "sasl.jaas.config";
    /** The per-listener keys: {@code listener.name.<listener>.} and a SASL key Kafka scopes per listener. */
    private static final Pattern LISTENER_KEY = Pattern.compile("listener\\.name\\.([a-z0-9_]+)\\."
            + "(sasl\\.enabled\\.mechanisms|(plain|scram-sha-256|scram-sha-512)\\.sasl\\.jaas\\.config)");
    private static final List<String> REFUSED_MECHANISMS = List.of("GSSAPI", "OAUTHBEARER");

    private SaslListenerConfig() {
    }

    /** Whether {@code name} is a per-listener SASL key (its listener is checked by {@link #parse}). */
    static boolean isListenerKey(String name) {
        return LISTENER_KEY.matcher(name).matches();
    }

    /** The key {@code suffix} scoped to {@code listenerName}: {@code listener.name.<lowercase name>.<suffix>}. */
    static String listenerKey(String listenerName, String suffix) {
        return LISTENER_PREFIX + listenerName.toLowerCase(Locale.ROOT) + "." + suffix;
    }

    /** Each SASL Kafka-protocol listener's settings, by listener name. */
    static Map<String, SaslListenerSettings> parse(List<ListenerSpec> kafkaListeners, Map<String, String> raw,
                                                   Map<String, Object> values) {
        List<ListenerSpec> saslListeners = kafkaListeners.stream().filter(SaslListenerConfig::isSasl).toList();
        checkListenerKeysNameSaslListeners(saslListeners, raw);
        checkLimits(values, !saslListeners.isEmpty());
        @SuppressWarnings("unchecked")
        Optional<List<String>> global = Optional.ofNullable((List<String>) values.get(ConfigKeys.SASL_ENABLED_MECHANISMS));
        global.ifPresent(mechanisms -> checkMechanisms(ConfigKeys.SASL_ENABLED_MECHANISMS, mechanisms));
        Map<String, SaslListenerSettings> settings = new TreeMap<>();
        for (ListenerSpec listener : saslListeners) {
            settings.put(listener.name(), listenerSettings(listener, raw, global, values));
        }
        return settings;
    }

    static boolean isSasl(ListenerSpec listener) {
        return listener.protocol() == ListenerSpec.SecurityProtocol.SASL_PLAINTEXT
                || listener.protocol() == ListenerSpec.SecurityProtocol.SASL_SSL;
    }

    @SuppressWarnings("unchecked")
    private static SaslListenerSettings listenerSettings(ListenerSpec listener, Map<String, String> raw,
                                                         Optional<List<String>> global, Map<String, Object> values) {
        String overrideKey = listenerKey(listener.name(), ENABLED_MECHANISMS_SUFFIX);
        List<String> mechanisms;
        if (raw.containsKey(overrideKey)) {
            mechanisms = (List<String>) ConfigType.LIST.parse(overrideKey, raw.get(overrideKey).trim());
            checkMechanisms(overrideKey, mechanisms);
        } else {
            mechanisms = global.orElseThrow(() -> new ConfigException(ConfigKeys.SASL_ENABLED_MECHANISMS,
                    "is not set, and listener " + listener.name() + " is " + listener.protocol() + "; Kafka's default"
                    + " GSSAPI is not supported here: set one or more of "
                    + SaslListenerSettings.SUPPORTED_MECHANISMS + ", for every SASL listener or in " + overrideKey));
        }
        String plainKey = listenerKey(listener.name(), "plain." + JAAS_CONFIG_SUFFIX);
        Map<String, String> plainUsers = Map.of();
        if (mechanisms.contains(SaslListenerSettings.PLAIN)) {
            if (!raw.containsKey(plainKey) || raw.get(plainKey).isBlank()) {
                throw new ConfigException(plainKey, "is required: listener " + listener.name() + " enables PLAIN,"
                        + " whose users are its user_NAME=\"PASSWORD\" options, e.g. " + JaasUsers.PLAIN_LOGIN_MODULE
                        + " required user_NAME=\"PASSWORD\";");
            }
            plainUsers = JaasUsers.plainUsers(plainKey, listener.name(), raw.get(plainKey));
        } else if (raw.containsKey(plainKey)) {
            throw new ConfigException(plainKey, "is set but listener " + listener.name() + " does not enable PLAIN "
                    + mechanisms + "; add PLAIN to its mechanisms or remove the key");
        }
        for (String scram : List.of(SaslListenerSettings.SCRAM_SHA_256, SaslListenerSettings.SCRAM_SHA_512)) {
            String scramKey = listenerKey(listener.name(), scram.toLowerCase(Locale.ROOT) + "." + JAAS_CONFIG_SUFFIX);
            if (raw.containsKey(scramKey)) {
                // Kafka requires this line for SCRAM; accepted so Kafka's properties work, its options unused.
                JaasUsers.checkScramModule(scramKey, listener.name(), scram, raw.get(scramKey));
            }
        }
        return new SaslListenerSettings(mechanisms, plainUsers, (Integer) values.get(ConfigKeys.SASL_SERVER_MAX_RECEIVE_SIZE),
                (Integer) values.get(ConfigKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS));
    }

    private static void checkMechanisms(String key, List<String> mechanisms) {
        if (mechanisms.isEmpty()) {
            throw new ConfigException(key, "names no mechanism; expected one or more of "
                    + SaslListenerSettings.SUPPORTED_MECHANISMS);
        }
        for (String mechanism : mechanisms) {
            if (REFUSED_MECHANISMS.contains(mechanism)) {
                throw new ConfigException(key, mechanism + " is not supported by this node's Kafka listeners;"
                        + " supported: " + SaslListenerSettings.SUPPORTED_MECHANISMS);
            }
            if (!SaslListenerSettings.SUPPORTED_MECHANISMS.contains(mechanism)) {
                throw new ConfigException(key, "unknown SASL mechanism '" + mechanism + "'; supported: "
                        + SaslListenerSettings.SUPPORTED_MECHANISMS + " (names are case-sensitive, as in Kafka)");
            }
        }
    }

    private static void checkListenerKeysNameSaslListeners(List<ListenerSpec> saslListeners, Map<String, String> raw) {
        List<String> names = saslListeners.stream().map(spec -> spec.name().toLowerCase(Locale.ROOT)).toList();
        for (String key : raw.keySet()) {
            Matcher matcher = LISTENER_KEY.matcher(key);
            if (matcher.matches() && !names.contains(matcher.group(1))) {
                throw new ConfigException(key, "names listener '" + matcher.group(1) + "', which is no SASL_PLAINTEXT"
                        + " or SASL_SSL Kafka-protocol listener of this node (those: " + names + ")");
            }
        }
    }

    private static void checkLimits(Map<String, Object> values, boolean anySaslListener) {
        int receiveMax = (Integer) values.get(ConfigKeys.SASL_SERVER_MAX_RECEIVE_SIZE);
        if (receiveMax <= 0) {
            throw new ConfigException(ConfigKeys.SASL_SERVER_MAX_RECEIVE_SIZE, "must be positive, got " + receiveMax);
        }
        int delayMs = (Integer) values.get(ConfigKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS);
        long idleMs = (Long) values.get(ConfigKeys.CONNECTIONS_MAX_IDLE_MS);
        if (delayMs < 0 || anySaslListener && delayMs >= idleMs) {
            throw new ConfigException(ConfigKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS, "must be at least 0 and"
                    + " below " + ConfigKeys.CONNECTIONS_MAX_IDLE_MS + " (" + idleMs + "), got " + delayMs);
        }
        long reauthMs = (Long) values.get(ConfigKeys.CONNECTIONS_MAX_REAUTH_MS);
        if (reauthMs != 0) {
            throw new ConfigException(ConfigKeys.CONNECTIONS_MAX_REAUTH_MS, "re-authentication is not supported;"
                    + " only 0 (sessions do not expire) is accepted, got " + reauthMs);
        }
    }
}

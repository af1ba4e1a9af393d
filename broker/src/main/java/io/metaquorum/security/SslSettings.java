package io.metaquorum.security;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The TLS side of a listener or a client, read from Kafka's {@code ssl.*} keys (the same
 * names on a node and in a tool's {@code --command-config}). Parsing checks each key on its
 * own and against the others (a PEM key without its chain, a password for a PEM file), so a
 * mistake stops start-up naming the key instead of failing in the first handshake.
 *
 * @param keyStore     this side's private key and certificate chain; required on a server,
 *                     optional on a client (no client certificate then)
 * @param trustStore   the certificates of the CAs this side trusts; empty means the JDK's
 * @param keyPassword  the private key's own password ({@code ssl.key.password}), when it has one
 * @param protocols    {@code ssl.enabled.protocols}
 * @param cipherSuites {@code ssl.cipher.suites}; empty means the provider's defaults
 */
public record SslSettings(Optional<StoreSource> keyStore, Optional<StoreSource> trustStore,
                          Optional<String> keyPassword, List<String> protocols, List<String> cipherSuites) {
    public static final String KEYSTORE_TYPE = "ssl.keystore.type";
    public static final String KEYSTORE_LOCATION = "ssl.keystore.location";
    public static final String KEYSTORE_PASSWORD = "ssl.keystore.password";
    public static final String KEYSTORE_CERTIFICATE_CHAIN = "ssl.keystore.certificate.chain";
    public static final String KEYSTORE_KEY = "ssl.keystore.key";
    public static final String KEY_PASSWORD = "ssl.key.password";
    public static final String TRUSTSTORE_TYPE = "ssl.truststore.type";
    public static final String TRUSTSTORE_LOCATION = "ssl.truststore.location";
    public static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";
    public static final String TRUSTSTORE_CERTIFICATES = "ssl.truststore.certificates";
    public static final String ENABLED_PROTOCOLS = "ssl.enabled.protocols";
    public static final String CIPHER_SUITES = "ssl.cipher.suites";
    /** Kafka's default store type; the JDK's JKS loader reads PKCS12 files as well. */
    public static final String DEFAULT_STORE_TYPE = "JKS";
    public static final String DEFAULT_PROTOCOLS = "TLSv1.3";
    private static final List<String> STORE_TYPES = List.of("JKS", "PKCS12", "PEM");
    private static final List<String> KNOWN_PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");

    public SslSettings {
        protocols = List.copyOf(protocols);
        cipherSuites = List.copyOf(cipherSuites);
    }

    /**
     * Reads the {@code ssl.*} keys through {@code lookup} (null or blank: unset). Throws
     * {@link SslConfigError} naming the first key that cannot be used.
     */
    public static SslSettings parse(Function<String, String> lookup) {
        Function<String, Optional<String>> value = key -> Optional.ofNullable(lookup.apply(key))
                .map(String::trim).filter(text -> !text.isEmpty());
        Optional<String> keyPassword = value.apply(KEY_PASSWORD);
        Optional<StoreSource> keyStore = keyStore(value);
        Optional<StoreSource> trustStore = trustStore(value);
        if (keyPassword.isPresent() && keyStore.isEmpty()) {
            throw new SslConfigError(KEY_PASSWORD, "is set but there is no key store (" + KEYSTORE_LOCATION
                    + " or " + KEYSTORE_KEY + ")");
        }
        List<String> protocols = list(value.apply(ENABLED_PROTOCOLS).orElse(DEFAULT_PROTOCOLS));
        if (protocols.isEmpty()) {
            throw new SslConfigError(ENABLED_PROTOCOLS, "must name at least one of " + KNOWN_PROTOCOLS);
        }
        for (String protocol : protocols) {
            if (!KNOWN_PROTOCOLS.contains(protocol)) {
                throw new SslConfigError(ENABLED_PROTOCOLS, "unsupported protocol '" + protocol + "'; expected "
                        + KNOWN_PROTOCOLS);
            }
        }
        List<String> ciphers = list(value.apply(CIPHER_SUITES).orElse(""));
        return new SslSettings(keyStore, trustStore, keyPassword, protocols, ciphers);
    }

    private static Optional<StoreSource> keyStore(Function<String, Optional<String>> value) {
        String type = storeType(KEYSTORE_TYPE, value);
        Optional<String> location = value.apply(KEYSTORE_LOCATION);
        Optional<String> password = value.apply(KEYSTORE_PASSWORD);
        Optional<String> chain = value.apply(KEYSTORE_CERTIFICATE_CHAIN);
        Optional<String> key = value.apply(KEYSTORE_KEY);
        if (chain.isPresent() != key.isPresent()) {
            String missing = chain.isPresent() ? KEYSTORE_KEY : KEYSTORE_CERTIFICATE_CHAIN;
            throw new SslConfigError(missing, "is required with "
                    + (chain.isPresent() ? KEYSTORE_CERTIFICATE_CHAIN : KEYSTORE_KEY));
        }
        if (chain.isPresent()) {
            requirePemText(KEYSTORE_CERTIFICATE_CHAIN, type, location, password, KEYSTORE_LOCATION, KEYSTORE_PASSWORD);
            return Optional.of(new StoreSource.PemText(chain.get(), key, KEYSTORE_CERTIFICATE_CHAIN));
        }
        return location.map(path -> file(KEYSTORE_PASSWORD, type, Path.of(path), password));
    }

    private static Optional<StoreSource> trustStore(Function<String, Optional<String>> value) {
        String type = storeType(TRUSTSTORE_TYPE, value);
        Optional<String> location = value.apply(TRUSTSTORE_LOCATION);
        Optional<String> password = value.apply(TRUSTSTORE_PASSWORD);
        Optional<String> certificates = value.apply(TRUSTSTORE_CERTIFICATES);
        if (certificates.isPresent()) {
            requirePemText(TRUSTSTORE_CERTIFICATES, type, location, password, TRUSTSTORE_LOCATION,
                    TRUSTSTORE_PASSWORD);
            return Optional.of(new StoreSource.PemText(certificates.get(), Optional.empty(), TRUSTSTORE_CERTIFICATES));
        }
        return location.map(path -> file(TRUSTSTORE_PASSWORD, type, Path.of(path), password));
    }

    private static StoreSource file(String passwordKey, String type, Path path, Optional<String> password) {
        if (type.equals("PEM")) {
            if (password.isPresent()) {
                // Kafka refuses it too: a PEM file has no store password, only a key password.
                throw new SslConfigError(passwordKey, "must not be set for a PEM file; a PEM private key's"
                        + " password is " + KEY_PASSWORD);
            }
            return new StoreSource.PemFile(path);
        }
        return new StoreSource.KeyStoreFile(path, type, password);
    }

    private static void requirePemText(String textKey, String type, Optional<String> location,
                                       Optional<String> password, String locationKey, String passwordKey) {
        if (!type.equals("PEM")) {
            throw new SslConfigError(textKey, "holds PEM text, so the store type must be PEM, not " + type);
        }
        if (location.isPresent()) {
            throw new SslConfigError(locationKey, "must not be set together with " + textKey);
        }
        if (password.isPresent()) {
            throw new SslConfigError(passwordKey, "must not be set for PEM text");
        }
    }

    private static String storeType(String key, Function<String, Optional<String>> value) {
        String type = value.apply(key).orElse(DEFAULT_STORE_TYPE).toUpperCase(Locale.ROOT);
        if (!STORE_TYPES.contains(type)) {
            throw new SslConfigError(key, "expected one of " + STORE_TYPES + ", got '" + type + "'");
        }
        return type;
    }

    private static List<String> list(String text) {
        List<String> items = new ArrayList<>();
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }
}

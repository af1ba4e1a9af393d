package io.metaquorum.security.grpc;

import io.metaquorum.security.SslSettings;
import io.metaquorum.security.SslConfigError;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * A client tool's connection security from a Kafka client properties file (a tool's
 * {@code --command-config}): {@code security.protocol} and the {@code ssl.*} keys, with
 * Kafka's names, so the file an operator already has for {@code kafka-topics.sh} works.
 * The tools hold it as an opaque value, so gRPC stays in the transport packages.
 * Keys for other client settings are ignored, as Kafka's tools ignore keys their client does
 * not use; an unknown {@code ssl.*} key is refused, since a mistyped one would silently leave
 * a connection without the certificate its writer meant.
 */
public final class ClientSecurity {
    public static final String SECURITY_PROTOCOL = "security.protocol";
    private static final Set<String> SSL_KEYS = Set.of(SslSettings.KEYSTORE_TYPE,
            SslSettings.KEYSTORE_LOCATION, SslSettings.KEYSTORE_PASSWORD, SslSettings.KEYSTORE_CERTIFICATE_CHAIN,
            SslSettings.KEYSTORE_KEY, SslSettings.KEY_PASSWORD, SslSettings.TRUSTSTORE_TYPE,
            SslSettings.TRUSTSTORE_LOCATION, SslSettings.TRUSTSTORE_PASSWORD, SslSettings.TRUSTSTORE_CERTIFICATES,
            SslSettings.ENABLED_PROTOCOLS, SslSettings.CIPHER_SUITES, "ssl.protocol",
            "ssl.endpoint.identification.algorithm");

    /** Plaintext, for a tool run without {@code --command-config}. */
    public static final ClientSecurity PLAINTEXT = new ClientSecurity(InsecureChannelCredentials.create());

    private final ChannelCredentials credentials;

    private ClientSecurity(ChannelCredentials credentials) {
        this.credentials = credentials;
    }

    /** What a channel to a node is built with. */
    public ChannelCredentials credentials() {
        return credentials;
    }

    /** Whether connections go without TLS. */
    public boolean isPlaintext() {
        return credentials instanceof InsecureChannelCredentials;
    }

    /** Reads {@code file}; throws {@link SslConfigError} naming the key at fault, or the file when unreadable. */
    public static ClientSecurity load(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new SslConfigError(file.toString(), "cannot read: " + e.getMessage(), e);
        }
        return of(properties);
    }

    static ClientSecurity of(Properties properties) {
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("ssl.") && !SSL_KEYS.contains(key)) {
                throw new SslConfigError(key, "unknown TLS key");
            }
        }
        String protocol = properties.getProperty(SECURITY_PROTOCOL, "PLAINTEXT").trim().toUpperCase(Locale.ROOT);
        String endpointCheck = properties.getProperty("ssl.endpoint.identification.algorithm", "https").trim();
        if (!endpointCheck.equalsIgnoreCase("https")) {
            throw new SslConfigError("ssl.endpoint.identification.algorithm", "only https is supported: the node's"
                    + " certificate must name the address the tool dials (a SAN)");
        }
        return switch (protocol) {
            case "PLAINTEXT" -> PLAINTEXT;
            case "SSL" -> new ClientSecurity(TlsCredentials.channel(SslSettings.parse(properties::getProperty)));
            case "SASL_PLAINTEXT", "SASL_SSL" -> throw new SslConfigError(SECURITY_PROTOCOL, protocol
                    + " is not spoken by metaquorum's gRPC listeners; use SSL with a client certificate");
            default -> throw new SslConfigError(SECURITY_PROTOCOL, "expected PLAINTEXT or SSL, got '"
                    + properties.getProperty(SECURITY_PROTOCOL) + "'");
        };
    }
}

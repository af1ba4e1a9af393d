package io.metaquorum.server;

import io.metaquorum.security.SslConfigError;
import io.metaquorum.security.SslSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code ssl.*} keys against the listeners' security protocols. The keys are one set for
 * the node: every SSL listener (gRPC or Kafka-protocol) presents the same key store and trusts
 * the same CAs. With an SSL or SASL_SSL listener the node gets its {@link SslSettings} (with a key store,
 * which a TLS server cannot do without); with none, TLS keys set are refused, since no
 * listener could use them and the operator most likely believes the node is encrypted.
 */
final class ListenerSecurityChecks {
    private ListenerSecurityChecks() {
    }

    static Optional<SslSettings> ssl(List<ListenerSpec> listeners, Map<String, String> raw) {
        Optional<ListenerSpec> tls = listeners.stream()
                .filter(listener -> listener.protocol() == ListenerSpec.SecurityProtocol.SSL
                        || listener.protocol() == ListenerSpec.SecurityProtocol.SASL_SSL).findFirst();
        if (tls.isEmpty()) {
            for (String key : raw.keySet()) {
                boolean storeKey = key.startsWith("ssl.keystore.") || key.startsWith("ssl.truststore.")
                        || key.equals(SslSettings.KEY_PASSWORD);
                if (storeKey && !raw.get(key).isBlank()) {
                    throw new ConfigException(key, "is set but every listener ("
                            + listeners.stream().map(ListenerSpec::name).toList() + ") is without TLS; map one to SSL or SASL_SSL"
                            + " in " + ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP + " or remove the ssl.* keys");
                }
            }
            return Optional.empty();
        }
        try {
            SslSettings ssl = SslSettings.parse(raw::get);
            if (ssl.keyStore().isEmpty()) {
                throw new ConfigException(SslSettings.KEYSTORE_LOCATION, "is required for the SSL listener "
                        + tls.get().name() + " (or " + SslSettings.KEYSTORE_KEY + " and "
                        + SslSettings.KEYSTORE_CERTIFICATE_CHAIN + ")");
            }
            return Optional.of(ssl);
        } catch (SslConfigError e) {
            throw new ConfigException(e.key(), e.reason());
        }
    }
}

package io.metaquorum.server;

import io.metaquorum.security.SslConfigError;
import io.metaquorum.security.SslSettings;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code ssl.*} keys against the listener's security protocol: an SSL listener gets its
 * {@link SslSettings} (with a key store, which a TLS server cannot do without); a PLAINTEXT
 * listener with TLS keys set is refused, since the node has no other listener they could be
 * meant for and the operator most likely believes the node is encrypted.
 */
final class ListenerSecurityChecks {
    private ListenerSecurityChecks() {
    }

    static Optional<SslSettings> ssl(ListenerSpec listener, Map<String, String> raw) {
        if (listener.protocol() == ListenerSpec.SecurityProtocol.PLAINTEXT) {
            for (String key : raw.keySet()) {
                boolean storeKey = key.startsWith("ssl.keystore.") || key.startsWith("ssl.truststore.")
                        || key.equals(SslSettings.KEY_PASSWORD);
                if (storeKey && !raw.get(key).isBlank()) {
                    throw new ConfigException(key, "is set but listener " + listener.name()
                            + " is PLAINTEXT; map it to SSL in " + ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP
                            + " or remove the ssl.* keys");
                }
            }
            return Optional.empty();
        }
        try {
            SslSettings ssl = SslSettings.parse(raw::get);
            if (ssl.keyStore().isEmpty()) {
                throw new ConfigException(SslSettings.KEYSTORE_LOCATION, "is required for the SSL listener "
                        + listener.name() + " (or " + SslSettings.KEYSTORE_KEY + " and "
                        + SslSettings.KEYSTORE_CERTIFICATE_CHAIN + ")");
            }
            return Optional.of(ssl);
        } catch (SslConfigError e) {
            throw new ConfigException(e.key(), e.reason());
        }
    }
}

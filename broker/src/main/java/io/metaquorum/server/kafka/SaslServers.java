package io.metaquorum.server.kafka;

import java.util.Map;
import javax.security.auth.callback.CallbackHandler;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.security.plain.internals.PlainSaslServerProvider;
import org.apache.kafka.common.security.scram.internals.ScramSaslServerProvider;

/**
 * Creates Kafka's own server side of a SASL mechanism (its PLAIN and SCRAM servers, found
 * through the JDK's SASL factories once Kafka's providers are registered), with this node's
 * callbacks: the listener's PLAIN users, or the SCRAM credential store.
 */
final class SaslServers {
    /** The SASL protocol name Kafka's servers and clients use. */
    private static final String PROTOCOL = "kafka";

    static {
        PlainSaslServerProvider.initialize();
        ScramSaslServerProvider.initialize();
    }

    private SaslServers() {
    }

    /** A server for one exchange of {@code mechanism}, which the listener has enabled. */
    static SaslServer create(String mechanism, SaslListenerSettings settings, ScramCredentialStore scram,
                             String serverName) throws SaslException {
        CallbackHandler callbacks = mechanism.equals(SaslListenerSettings.PLAIN)
                ? new PlainUsers(settings.plainUsers()) : new ScramCallbacks(mechanism, scram);
        SaslServer server = Sasl.createSaslServer(mechanism, PROTOCOL, serverName, Map.of(), callbacks);
        if (server == null) {
            throw new SaslException("no SASL server for mechanism " + mechanism);
        }
        return server;
    }
}

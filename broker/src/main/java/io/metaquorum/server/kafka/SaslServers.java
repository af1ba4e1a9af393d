package io.metaquorum.server.kafka;

import java.util.Map;
import javax.security.auth.callback.CallbackHandler;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import javax.security.sasl.SaslServerFactory;
import org.apache.kafka.common.security.plain.internals.PlainSaslServer;
import org.apache.kafka.common.security.scram.internals.ScramSaslServer;

/**
 * Creates Kafka's own server side of a SASL mechanism, its PLAIN or SCRAM server, through
 * Kafka's factories, with this node's callbacks: the listener's PLAIN users, or the SCRAM
 * credential store. The factories are called directly rather than found among the JVM's
 * security providers, so no other provider's mechanism of the same name can take their place
 * and nothing global is registered.
 */
final class SaslServers {
    /** The SASL protocol name Kafka's servers and clients use. */
    private static final String PROTOCOL = "kafka";
    private static final SaslServerFactory PLAIN = new PlainSaslServer.PlainSaslServerFactory();
    private static final SaslServerFactory SCRAM = new ScramSaslServer.ScramSaslServerFactory();

    private SaslServers() {
    }

    /** A server for one exchange of {@code mechanism}, which the listener has enabled. */
    static SaslServer create(String mechanism, SaslListenerSettings settings, ScramCredentialStore scram,
                             String serverName) throws SaslException {
        boolean plain = mechanism.equals(SaslListenerSettings.PLAIN);
        CallbackHandler callbacks = plain ? new PlainUsers(settings.plainUsers()) : new ScramCallbacks(mechanism, scram);
        SaslServer server = (plain ? PLAIN : SCRAM).createSaslServer(mechanism, PROTOCOL, serverName, Map.of(),
                callbacks);
        if (server == null) {
            throw new SaslException("no SASL server for mechanism " + mechanism);
        }
        return server;
    }
}

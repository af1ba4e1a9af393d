package io.metaquorum.server.kafka;

import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.RefusalLog;
import io.metaquorum.net.HostPort;
import io.netty.handler.ssl.SslContext;
import java.util.Optional;

/**
 * What one Kafka-protocol listener needs besides the APIs it serves.
 *
 * @param logPrefix         the node's {@code [node N] }
 * @param listenerName      its name in {@code listeners}, e.g. {@code EXTERNAL}
 * @param address           its configured address (port 0: any free port)
 * @param tls               the TLS context for an SSL or SASL_SSL listener; empty for PLAINTEXT and SASL_PLAINTEXT
 * @param mapping           {@code ssl.principal.mapping.rules}, for client certificates
 * @param refusals          where closed connections are logged, rate-limited
 * @param requestBytesMax   {@code socket.request.max.bytes}: the largest frame read
 * @param idleMsMax         {@code connections.max.idle.ms}: an idle connection is closed after this
 * @param sasl              for a SASL_PLAINTEXT or SASL_SSL listener, how clients authenticate;
 *                          empty for PLAINTEXT and SSL
 */
public record KafkaListenerSettings(String logPrefix, String listenerName, HostPort address, Optional<SslContext> tls,
                                    SslPrincipalMapping mapping, RefusalLog refusals, int requestBytesMax,
                                    long idleMsMax, Optional<SaslListenerSettings> sasl) {
    /** A PLAINTEXT or SSL listener's settings: no SASL. */
    public KafkaListenerSettings(String logPrefix, String listenerName, HostPort address, Optional<SslContext> tls,
                                 SslPrincipalMapping mapping, RefusalLog refusals, int requestBytesMax, long idleMsMax) {
        this(logPrefix, listenerName, address, tls, mapping, refusals, requestBytesMax, idleMsMax, Optional.empty());
    }
}

package io.metaquorum.server;

import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.RefusalLog;
import io.metaquorum.server.kafka.KafkaListenerServer;
import io.metaquorum.server.kafka.KafkaListenerSettings;
import io.metaquorum.server.kafka.KafkaTls;
import io.metaquorum.server.kafka.ScramCredentialStore;
import io.netty.handler.ssl.SslContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts a node's Kafka-protocol listeners ({@link ServerConfig#kafkaListeners()}), one
 * {@link KafkaListenerServer} each, from its configuration: the shared {@code ssl.*} keys for
 * the SSL and SASL_SSL ones, {@code ssl.principal.mapping.rules}, {@code socket.request.max.bytes},
 * {@code connections.max.idle.ms}, and the SASL keys of the SASL ones, which find SCRAM
 * credentials in the given {@link ScramCredentialStore}. All start or none: one that cannot bind closes the others.
 */
final class KafkaListeners {
    private KafkaListeners() {
    }

    /** A started listener: as configured, but with the port it bound. */
    record Bound(ListenerSpec listener, KafkaListenerServer server) {
    }

    static List<Bound> start(ServerConfig config, String logPrefix, KafkaApis apis, ScramCredentialStore scram) {
        List<Bound> started = new ArrayList<>();
        if (config.kafkaListeners().isEmpty()) {
            return started;
        }
        SslPrincipalMapping mapping = SslPrincipalMapping.parse(
                (String) config.value(ConfigKeys.SSL_PRINCIPAL_MAPPING_RULES));
        RefusalLog refusals = new RefusalLog(logPrefix, System::nanoTime);
        Optional<SslContext> tls = config.ssl().map(ssl -> KafkaTls.server(ssl, config.clientAuth()));
        try {
            for (ListenerSpec listener : config.kafkaListeners()) {
                boolean secure = listener.protocol() == ListenerSpec.SecurityProtocol.SSL
                        || listener.protocol() == ListenerSpec.SecurityProtocol.SASL_SSL;
                KafkaListenerServer server = KafkaListenerServer.start(new KafkaListenerSettings(logPrefix,
                        listener.name(), listener.address(), secure ? tls : Optional.empty(), mapping, refusals,
                        config.kafkaRequestBytesMax(), config.kafkaConnectionIdleMsMax(),
                        config.sasl(listener.name())), apis, scram);
                started.add(new Bound(new ListenerSpec(listener.name(), listener.protocol(), server.boundAddress()),
                        server));
            }
            return started;
        } catch (RuntimeException e) {
            close(started);
            throw e;
        }
    }

    static void close(List<Bound> listeners) {
        listeners.forEach(bound -> bound.server().close());
    }
}

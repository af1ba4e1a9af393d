package io.metaquorum.server.kafka;

import io.metaquorum.net.HostPort;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.RefusalLog;
import io.netty.handler.ssl.SslContext;
import java.util.Optional;

/** Kafka listeners for tests: on 127.0.0.1, port 0. */
final class TestListeners {
    static final int REQUEST_BYTES_MAX = 1 << 20;
    static final long IDLE_MS_MAX = 600_000;

    private TestListeners() {
    }

    static KafkaListenerServer plaintext(KafkaApis apis) {
        return start(apis, Optional.empty(), "DEFAULT");
    }

    static KafkaListenerServer start(KafkaApis apis, Optional<SslContext> tls, String mappingRules) {
        return start(apis, tls, mappingRules, IDLE_MS_MAX);
    }

    static KafkaListenerServer start(KafkaApis apis, Optional<SslContext> tls, String mappingRules, long idleMsMax) {
        return KafkaListenerServer.start(new KafkaListenerSettings("[node 9] ", "EXTERNAL",
                new HostPort("127.0.0.1", 0), tls,
                SslPrincipalMapping.parse(mappingRules), new RefusalLog("[node 9] ", System::nanoTime),
                REQUEST_BYTES_MAX, idleMsMax), apis, ScramCredentialStore.NONE);
    }
}

package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.security.Principal;
import io.metaquorum.server.kafka.ScramCredentialStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * From a Kafka operator's properties to a serving SASL listener: {@link KafkaListeners}
 * starts a {@code SASL_PLAINTEXT} listener with the PLAIN users of its JAAS line, and Kafka's
 * Admin client authenticates as one of them (or fails with a wrong password).
 */
class KafkaListenersSaslTest {
    private final BlockingQueue<KafkaCall> calls = new ArrayBlockingQueue<>(64);
    private List<KafkaListeners.Bound> started = List.of();

    @AfterEach
    void stop() {
        KafkaListeners.close(started);
    }

    @Test
    void anOperatorsSaslPropertiesStartAListenerKafkasClientAuthenticatesWith() throws Exception {
        Map<String, String> raw = new HashMap<>();
        raw.put("process.roles", "controller");
        raw.put("node.id", "1");
        raw.put("controller.quorum.voters", "1@127.0.0.1:19091");
        raw.put("listeners", "CONTROLLER://127.0.0.1:19091,EXTERNAL://127.0.0.1:0");
        raw.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,EXTERNAL:SASL_PLAINTEXT");
        raw.put("controller.listener.names", "CONTROLLER");
        raw.put("metadata.log.dir", "/tmp/mq/node-1/metadata");
        raw.put("sasl.enabled.mechanisms", "PLAIN");
        raw.put("listener.name.external.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\";");
        ServerConfig config = ServerConfig.parse(raw);
        AtomicInteger port = new AtomicInteger();
        KafkaApiHandler metadata = (call, request, reply) -> {
            calls.add(call);
            MetadataResponseData data = new MetadataResponseData().setClusterId("c").setControllerId(1);
            data.brokers().add(new MetadataResponseData.MetadataResponseBroker().setNodeId(1).setHost("127.0.0.1")
                    .setPort(port.get()));
            reply.accept(new MetadataResponse(data, call.apiVersion()));
        };
        started = KafkaListeners.start(config, "[node 1] ", KafkaApis.withApiVersions(Map.of(ApiKeys.METADATA,
                metadata)), ScramCredentialStore.NONE);
        port.set(started.get(0).listener().address().port());
        try (Admin admin = Admin.create(client(port.get(), "alice-secret"))) {
            assertEquals(Set.of(), admin.listTopics().names().get());
        }
        assertEquals(Principal.user("alice"), calls.peek().origin().caller().principal());
        try (Admin admin = Admin.create(client(port.get(), "wrong"))) {
            ExecutionException failure = assertThrows(ExecutionException.class, () -> admin.listTopics().names().get());
            assertInstanceOf(SaslAuthenticationException.class, failure.getCause());
        }
    }

    private static Properties client(int port, String password) {
        Properties properties = new Properties();
        properties.putAll(Map.of("bootstrap.servers", "127.0.0.1:" + port, "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "PLAIN", "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule"
                        + " required username=\"alice\" password=\"" + password + "\";",
                "request.timeout.ms", "10000", "default.api.timeout.ms", "20000"));
        return properties;
    }
}

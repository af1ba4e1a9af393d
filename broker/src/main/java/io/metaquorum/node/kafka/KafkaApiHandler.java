package io.metaquorum.node.kafka;

import java.util.function.Consumer;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Serves one Kafka API on a node: a thin adapter from Kafka's generated request to the same
 * transport-independent call the gRPC API makes ({@link io.metaquorum.node.admin.AdminRequests}),
 * and back to Kafka's response, with Kafka's error codes (ours are the same numbers).
 */
@FunctionalInterface
public interface KafkaApiHandler {
    /**
     * Answers {@code request}; {@code reply} is called exactly once, maybe later and on another
     * thread (a write answers once committed).
     */
    void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply);
}

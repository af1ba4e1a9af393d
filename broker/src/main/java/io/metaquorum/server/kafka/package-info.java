/**
 * The Kafka-protocol listener: Netty servers that speak Kafka's wire protocol to Kafka's own
 * clients (AdminClient, kafka-topics.sh), framing, TLS, SASL authentication
 * ({@link io.metaquorum.server.kafka.SaslExchange}, with Kafka's own mechanism servers) and
 * ordering here, and every API
 * answered by the deterministic handlers of {@link io.metaquorum.node.kafka.KafkaApis}.
 * Requests and responses are Kafka's generated message classes, used as a library.
 */
package io.metaquorum.server.kafka;

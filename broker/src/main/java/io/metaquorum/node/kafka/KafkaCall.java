package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.CallOrigin;

/**
 * One request as the Kafka-protocol listener received it: who sent it (the authenticated
 * principal and host, as on the gRPC listener), the name of the listener it came in on (a
 * Metadata answer lists each broker's endpoint on that same listener, as Kafka does), and the
 * API version the client chose.
 *
 * @param origin       the caller and its ACL read offset, as the gRPC API takes them
 * @param listenerName the listener's name, e.g. {@code EXTERNAL}
 * @param apiVersion   the request's version, within what {@link KafkaApis#advertised()} offers
 */
public record KafkaCall(CallOrigin origin, String listenerName, short apiVersion) {
}

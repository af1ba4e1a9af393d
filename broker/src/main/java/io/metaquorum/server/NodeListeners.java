package io.metaquorum.server;

import java.util.ArrayList;
import java.util.List;

/**
 * Which entry of {@code listeners} is the node's gRPC listener (raft, the admin API, the broker
 * RPCs, and how the node dials its peers) and which speak Kafka's own protocol to Kafka's
 * clients. The gRPC listener is the one {@code controller.listener.names} names on a
 * controller, or {@code inter.broker.listener.name} on a broker, as in Kafka; without either,
 * the first entry. A single entry is therefore the gRPC listener, as before there were Kafka
 * listeners. The gRPC listener may not be SASL_PLAINTEXT or SASL_SSL; a Kafka-protocol one may.
 *
 * @param grpc  the gRPC listener
 * @param kafka the Kafka-protocol listeners, in {@code listeners} order; empty when off
 */
public record NodeListeners(ListenerSpec grpc, List<ListenerSpec> kafka) {
    public NodeListeners {
        kafka = List.copyOf(kafka);
    }

    /**
     * Splits {@code all} (parsed and checked by {@link ListenerSpec#parseAll}); throws
     * {@link ConfigException} naming the key whose listener name does not fit.
     *
     * @param controllerNames {@code controller.listener.names}, or null
     * @param interBroker     {@code inter.broker.listener.name}, or null or blank
     */
    public static NodeListeners choose(List<ListenerSpec> all, boolean controller, boolean broker,
                                       List<String> controllerNames, String interBroker) {
        ListenerSpec grpc = all.get(0);
        if (controller && controllerNames != null) {
            grpc = controllerListener(all, controllerNames);
        }
        if (broker && interBroker != null && !interBroker.isBlank()) {
            ListenerSpec named = all.stream().filter(spec -> spec.name().equals(interBroker.trim())).findFirst()
                    .orElseThrow(() -> new ConfigException(ConfigKeys.INTER_BROKER_LISTENER_NAME, "'" + interBroker
                            + "' is not one of this broker's listeners " + names(all)));
            if (controller && controllerNames != null && !named.equals(grpc)) {
                throw new ConfigException(ConfigKeys.INTER_BROKER_LISTENER_NAME, "'" + interBroker + "' differs from"
                        + " the controller listener " + grpc.name() + "; a node serves raft and the broker RPCs on"
                        + " one gRPC listener");
            }
            grpc = named;
        }
        if (grpc.protocol() == ListenerSpec.SecurityProtocol.SASL_PLAINTEXT
                || grpc.protocol() == ListenerSpec.SecurityProtocol.SASL_SSL) {
            throw new ConfigException(ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP, "listener " + grpc.name() + " maps to "
                    + grpc.protocol() + ", but it is this node's gRPC listener, which speaks PLAINTEXT or SSL (client"
                    + " certificates); SASL is served on Kafka-protocol listeners only");
        }
        List<ListenerSpec> kafka = new ArrayList<>(all);
        kafka.remove(grpc);
        return new NodeListeners(grpc, kafka);
    }

    private static ListenerSpec controllerListener(List<ListenerSpec> all, List<String> controllerNames) {
        List<ListenerSpec> named = all.stream().filter(spec -> controllerNames.contains(spec.name())).toList();
        if (named.isEmpty()) {
            throw new ConfigException(ConfigKeys.CONTROLLER_LISTENER_NAMES, controllerNames
                    + " names none of this controller's listeners " + names(all));
        }
        if (named.size() > 1) {
            throw new ConfigException(ConfigKeys.CONTROLLER_LISTENER_NAMES, controllerNames + " names "
                    + names(named) + "; a controller serves raft on one gRPC listener");
        }
        return named.get(0);
    }

    private static List<String> names(List<ListenerSpec> specs) {
        return specs.stream().map(ListenerSpec::name).toList();
    }
}

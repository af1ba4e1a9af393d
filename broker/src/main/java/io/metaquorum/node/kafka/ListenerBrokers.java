package io.metaquorum.node.kafka;

import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribedBroker;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The brokers one Kafka listener can name, as Kafka's Metadata and DescribeCluster list them:
 * each registered broker with an endpoint of that listener's name, its endpoint on it, sorted by
 * id; unfenced ones only unless asked. Kafka normalises listener names to upper case, so names
 * are matched ignoring case.
 *
 * <p>The controller these APIs report must be one of the listed brokers, or Kafka's AdminClient
 * never finds a node to send controller-bound requests to. Every node here forwards writes to the
 * active controller, so the one reported is this node when it is listed (and unfenced), else the
 * lowest listed unfenced broker, else -1.
 */
final class ListenerBrokers {
    static final int NO_CONTROLLER = -1;

    private ListenerBrokers() {
    }

    static List<ListenerBroker> on(DescribeClusterResponse cluster, String listenerName, boolean withFenced) {
        List<ListenerBroker> out = new ArrayList<>(cluster.getBrokersCount());
        for (DescribedBroker broker : cluster.getBrokersList()) {
            if (broker.getFenced() && !withFenced) {
                continue;
            }
            endpoint(broker, listenerName).ifPresent(e -> out.add(new ListenerBroker(broker.getBrokerId(),
                    e.getHost(), e.getPort(), WireValues.rack(broker.getRack()), broker.getFenced())));
        }
        out.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return out;
    }

    static Optional<BrokerEndpoint> endpoint(DescribedBroker broker, String listenerName) {
        return broker.getEndpointsList().stream().filter(e -> e.getName().equalsIgnoreCase(listenerName)).findFirst();
    }

    /** {@code nodeId} when it is a listed unfenced broker, else the lowest listed unfenced one, else -1. */
    static int controllerId(List<ListenerBroker> listed, int nodeId) {
        int lowest = NO_CONTROLLER;
        for (ListenerBroker broker : listed) {
            if (broker.fenced()) {
                continue;
            }
            if (broker.id() == nodeId) {
                return nodeId;
            }
            if (lowest == NO_CONTROLLER || broker.id() < lowest) {
                lowest = broker.id();
            }
        }
        return lowest;
    }
}

package io.metaquorum.metadata.image;

import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.Uuid;
import java.util.List;

/**
 * One registered broker (Kafka's {@code BrokerRegistration}).
 *
 * @param id            broker id
 * @param incarnationId the process incarnation that registered
 * @param epoch         broker epoch: the offset its registration was appended at
 * @param endpoints     listeners, in the order registered
 * @param rack          rack, empty when none
 * @param fenced        true until the broker has caught up, and again after its session expires
 */
public record BrokerRegistration(int id, Uuid incarnationId, long epoch, List<BrokerEndpoint> endpoints, String rack,
                                 boolean fenced) {
    public BrokerRegistration {
        endpoints = List.copyOf(endpoints);
    }

    public boolean hasRack() {
        return !rack.isEmpty();
    }

    BrokerRegistration withFenced(boolean nowFenced) {
        return new BrokerRegistration(id, incarnationId, epoch, endpoints, rack, nowFenced);
    }
}

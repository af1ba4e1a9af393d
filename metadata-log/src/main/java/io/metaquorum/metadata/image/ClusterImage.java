package io.metaquorum.metadata.image;

import io.vavr.collection.HashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The registered brokers by id (Kafka's {@code ClusterImage}). */
public record ClusterImage(HashMap<Integer, BrokerRegistration> brokers) {
    public static final ClusterImage EMPTY = new ClusterImage(HashMap.empty());

    public BrokerRegistration broker(int id) {
        return brokers.get(id).getOrNull();
    }

    /** The brokers sorted by id. */
    public List<BrokerRegistration> sortedById() {
        List<BrokerRegistration> sorted = new ArrayList<>(brokers.size());
        brokers.values().forEach(sorted::add);
        sorted.sort(Comparator.comparingInt(BrokerRegistration::id));
        return sorted;
    }

    /** The unfenced brokers sorted by id: where new replicas may go. */
    public List<BrokerRegistration> unfencedSortedById() {
        return sortedById().stream().filter(b -> !b.fenced()).toList();
    }

    ClusterImage withBroker(BrokerRegistration broker) {
        return new ClusterImage(brokers.put(broker.id(), broker));
    }

    ClusterImage withoutBroker(int id) {
        return new ClusterImage(brokers.remove(id));
    }
}

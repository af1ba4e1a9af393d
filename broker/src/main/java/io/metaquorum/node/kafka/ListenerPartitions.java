package io.metaquorum.node.kafka;

import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.protocol.DescribedPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.kafka.common.protocol.Errors;

/**
 * Partitions as a Kafka client on one listener sees them, by the rules of Kafka's broker metadata
 * cache: a replica is reachable when its broker is registered, unfenced and has that listener.
 * A leader that is not reachable is reported as -1, with LEADER_NOT_AVAILABLE, or
 * LISTENER_NOT_FOUND (from Metadata v6 on) when its broker is up but lacks the listener: the
 * client then knows the listener is misconfigured rather than the partition down. Version 0 of
 * Metadata lists only reachable replicas, and says REPLICA_NOT_AVAILABLE when it left any out.
 * The image and the brokers come from one read, so every leader is judged against the broker
 * list of the same image.
 */
final class ListenerPartitions {
    private final TreeMap<Integer, DescribedBroker> registered = new TreeMap<>();
    private final String listenerName;

    ListenerPartitions(DescribeClusterResponse cluster, String listenerName) {
        for (DescribedBroker broker : cluster.getBrokersList()) {
            registered.put(broker.getBrokerId(), broker);
        }
        this.listenerName = listenerName;
    }

    boolean reachable(int brokerId) {
        DescribedBroker broker = registered.get(brokerId);
        return broker != null && !broker.getFenced() && ListenerBrokers.endpoint(broker, listenerName).isPresent();
    }

    /**
     * @param onlyReachable  list only the reachable replicas and ISR members (Metadata v0)
     * @param listenerErrors say LISTENER_NOT_FOUND for a live leader without the listener
     */
    PartitionState state(DescribedPartition partition, boolean onlyReachable, boolean listenerErrors) {
        List<Integer> replicas = onlyReachable ? reachableOf(partition.getReplicasList()) : partition.getReplicasList();
        List<Integer> isr = onlyReachable ? reachableOf(partition.getIsrList()) : partition.getIsrList();
        List<Integer> offline = new ArrayList<>();
        for (int replica : partition.getReplicasList()) {
            if (!reachable(replica)) {
                offline.add(replica);
            }
        }
        int leader = partition.getLeaderId();
        if (!reachable(leader)) {
            DescribedBroker broker = registered.get(leader);
            boolean withoutListener = broker != null && !broker.getFenced();
            Errors error = withoutListener && listenerErrors ? Errors.LISTENER_NOT_FOUND : Errors.LEADER_NOT_AVAILABLE;
            return new PartitionState(error.code(), partition.getPartitionIndex(), -1, partition.getLeaderEpoch(),
                    replicas, isr, offline);
        }
        boolean leftOut = replicas.size() < partition.getReplicasCount() || isr.size() < partition.getIsrCount();
        Errors error = leftOut ? Errors.REPLICA_NOT_AVAILABLE : Errors.NONE;
        return new PartitionState(error.code(), partition.getPartitionIndex(), leader, partition.getLeaderEpoch(),
                replicas, isr, offline);
    }

    private List<Integer> reachableOf(List<Integer> brokerIds) {
        List<Integer> out = new ArrayList<>(brokerIds.size());
        for (int id : brokerIds) {
            if (reachable(id)) {
                out.add(id);
            }
        }
        return out;
    }
}

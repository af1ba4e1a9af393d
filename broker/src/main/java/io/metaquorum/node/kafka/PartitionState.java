package io.metaquorum.node.kafka;

import java.util.List;

/**
 * One partition as a Kafka client on one listener is told of it.
 *
 * @param errorCode Kafka's code: NONE, LEADER_NOT_AVAILABLE, LISTENER_NOT_FOUND or REPLICA_NOT_AVAILABLE
 * @param leaderId  -1 when the leader cannot be reached on the listener
 * @param offline   the replicas not reachable on the listener (unregistered, fenced, or without it)
 */
record PartitionState(short errorCode, int partitionIndex, int leaderId, int leaderEpoch, List<Integer> replicas,
                      List<Integer> isr, List<Integer> offline) {
}

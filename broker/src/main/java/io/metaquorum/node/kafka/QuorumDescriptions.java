package io.metaquorum.node.kafka;

import io.metaquorum.protocol.DescribeQuorumResponse;
import java.util.function.Consumer;

/**
 * Where a node gets the metadata quorum as its raft leader describes it, for Kafka's
 * DescribeQuorum. Only the leader tracks every replica's progress, so a node that is not the
 * leader asks the one it knows (Kafka's brokers forward DescribeQuorum to the active controller
 * the same way), and Kafka's admin client gets the leader's answer from whichever node it asked.
 *
 * <p>The server implements it over raft's DescribeQuorum RPC to the leader
 * ({@code io.metaquorum.server.kafka.RaftLeaderQuorum}); a test or the simulator may answer
 * from a fixed response.
 */
@FunctionalInterface
public interface QuorumDescriptions {
    /**
     * Calls {@code reply} exactly once, maybe later and on another thread, with raft's
     * DescribeQuorum answer for the metadata partition:
     * <ul>
     *   <li>the leader's, with replica progress, when it answered;</li>
     *   <li>else one whose partition says NOT_LEADER_OR_FOLLOWER (with the leader id and epoch
     *       this node knows, -1 when none), which Kafka's client retries: no leader is known,
     *       or it did not answer in time;</li>
     * </ul>
     * and in {@code nodes} where each voter listens (node id, host, port), the leader included,
     * as this node reaches them.
     */
    void describeLeader(Consumer<DescribeQuorumResponse> reply);
}

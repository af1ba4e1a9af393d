package io.metaquorum.server.status;

import io.grpc.ChannelCredentials;
import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;

/**
 * The quorum as its leader tracks it, for the status page of any node: only the leader knows
 * every replica's progress, so the page's node asks the leader it knows (DescribeQuorum, as
 * {@code mq-metadata quorum} does) over the controllers' listeners, with the node's own
 * transport security. One connection per controller, opened when first needed and kept.
 */
public final class LeaderQuorumView implements AutoCloseable {
    private final Map<Integer, InetSocketAddress> controllers;
    private final ChannelCredentials credentials;
    private final long timeoutMs;
    private final Map<Integer, QuorumClient> clients = new TreeMap<>();

    /** The leader's answer, or why there is none. */
    public record Answer(QuorumReport report, String problem) {
        static Answer failed(String problem) {
            return new Answer(null, problem);
        }
    }

    public LeaderQuorumView(Map<Integer, InetSocketAddress> controllers, ChannelCredentials credentials,
                            long timeoutMs) {
        this.controllers = new TreeMap<>(controllers);
        this.credentials = credentials;
        this.timeoutMs = timeoutMs;
    }

    /** Asks node {@code leaderId}; blocks up to the timeout. */
    public synchronized Answer ask(int leaderId) {
        if (leaderId < 0) {
            return Answer.failed("no leader is known");
        }
        InetSocketAddress address = controllers.get(leaderId);
        if (address == null) {
            return Answer.failed("the leader, node " + leaderId + ", is not among the configured controllers");
        }
        DescribeQuorumResponse response;
        try {
            response = clients.computeIfAbsent(leaderId, id -> new QuorumClient(address, timeoutMs,
                    credentials)).describeMetadataQuorum();
        } catch (RuntimeException e) {
            return Answer.failed("node " + leaderId + " at " + address.getHostString() + ":" + address.getPort()
                    + " did not answer: " + e.getMessage());
        }
        if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() != 1
                || response.getTopics(0).getPartitionsCount() != 1) {
            return Answer.failed("node " + leaderId + " answered " + response.getErrorCode());
        }
        DescribeQuorumPartitionResponse partition = response.getTopics(0).getPartitions(0);
        if (partition.getErrorCode() != ErrorCode.NONE) {
            return Answer.failed("node " + leaderId + " answered " + partition.getErrorCode()
                    + (partition.getLeaderId() >= 0 ? " (it knows node " + partition.getLeaderId() + " as leader)" : ""));
        }
        return new Answer(QuorumReport.from(response), null);
    }

    @Override
    public synchronized void close() {
        clients.values().forEach(QuorumClient::close);
        clients.clear();
    }
}

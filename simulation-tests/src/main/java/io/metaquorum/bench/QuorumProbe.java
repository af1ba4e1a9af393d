package io.metaquorum.bench;

import io.grpc.ChannelCredentials;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Asks the controllers of a running cluster, through DescribeQuorum, who leads and how far
 * the quorum is: the in-process client of the failover benchmark. One client (gRPC channel)
 * per controller, kept open so probes cost one round trip.
 */
final class QuorumProbe implements AutoCloseable {
    private static final long PROBE_TIMEOUT_MS = 200;

    /** What one controller says: the leader it knows, its epoch, and (from the leader) the high watermark. */
    record View(int nodeId, int leaderId, int epoch, long highWatermark, boolean fromLeader, long maxLag) {
    }

    private final Map<Integer, InetSocketAddress> controllers;
    private final Map<Integer, QuorumClient> clients = new TreeMap<>();

    private final ChannelCredentials credentials;

    QuorumProbe(Map<Integer, InetSocketAddress> controllers, ChannelCredentials credentials) {
        this.controllers = new TreeMap<>(controllers);
        this.credentials = credentials;
    }

    /** The view of one controller, or empty if it does not answer. */
    Optional<View> ask(int nodeId) {
        try {
            QuorumClient client = clients.computeIfAbsent(nodeId,
                    id -> new QuorumClient(controllers.get(id), PROBE_TIMEOUT_MS, credentials));
            DescribeQuorumResponse response = client.describeMetadataQuorum();
            if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() == 0) {
                return Optional.empty();
            }
            DescribeQuorumPartitionResponse p = response.getTopics(0).getPartitions(0);
            boolean fromLeader = p.getErrorCode() == ErrorCode.NONE;
            long maxLag = p.getCurrentVotersList().stream()
                    .mapToLong(v -> Math.max(0, p.getHighWatermark() - v.getLogEndOffset())).max().orElse(0);
            return Optional.of(new View(nodeId, p.getLeaderId(), p.getLeaderEpoch(), p.getHighWatermark(), fromLeader,
                    fromLeader ? maxLag : Long.MAX_VALUE));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The leader's own view, asking every controller but {@code excluded}; empty if none answers as leader. */
    Optional<View> leaderView(int excluded) {
        for (int id : controllers.keySet()) {
            if (id == excluded) {
                continue;
            }
            Optional<View> view = ask(id);
            if (view.isPresent() && view.get().fromLeader()) {
                return view;
            }
            if (view.isPresent() && view.get().leaderId() >= 0 && view.get().leaderId() != excluded) {
                Optional<View> leader = ask(view.get().leaderId());
                if (leader.isPresent() && leader.get().fromLeader()) {
                    return leader;
                }
            }
        }
        return Optional.empty();
    }

    /** Forgets the channel to a controller (after it was killed) so the next probe reconnects. */
    void reset(int nodeId) {
        QuorumClient client = clients.remove(nodeId);
        if (client != null) {
            client.close();
        }
    }

    @Override
    public void close() {
        clients.values().forEach(QuorumClient::close);
        clients.clear();
    }
}

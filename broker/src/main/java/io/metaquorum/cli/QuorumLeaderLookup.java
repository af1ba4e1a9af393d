package io.metaquorum.cli;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import io.metaquorum.security.grpc.ClientSecurity;
import io.metaquorum.net.HostPort;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the quorum leader's DescribeQuorum answer, starting from the given controllers.
 * Only the leader answers with replica progress; any other node answers
 * NOT_LEADER_OR_FOLLOWER naming the leader it knows, together with the addresses at which
 * it reaches the other voters, so the tool goes on to the leader's address next (as
 * Kafka's tool finds the active controller from any bootstrap controller). Otherwise it
 * tries the addresses of {@code --bootstrap-controller} in order; each address is asked at
 * most once, and if no leader answers it says what each one said.
 */
final class QuorumLeaderLookup {
    private static final int PORT_MAX = 65_535;

    private QuorumLeaderLookup() {
    }

    /** The leader's answer and the address it answered at. */
    record LeaderAnswer(HostPort address, DescribeQuorumResponse response) {
    }

    static DescribeQuorumResponse describeLeader(List<HostPort> controllers, long timeoutMs,
                                                 ClientSecurity security) {
        return findLeader(controllers, timeoutMs, security).response();
    }

    static LeaderAnswer findLeader(List<HostPort> controllers, long timeoutMs, ClientSecurity security) {
        List<String> problems = new ArrayList<>();
        Deque<HostPort> toAsk = new ArrayDeque<>(controllers);
        Set<HostPort> asked = new HashSet<>();
        int knownLeader = -1;
        while (!toAsk.isEmpty()) {
            HostPort controller = toAsk.poll();
            if (!asked.add(controller)) {
                continue;
            }
            DescribeQuorumResponse response;
            try (QuorumClient client = new QuorumClient(controller.toAddress(), timeoutMs,
                    security.credentials())) {
                response = client.describeMetadataQuorum();
            } catch (RuntimeException e) {
                problems.add(controller + " is unreachable (" + CommandLines.describe(e) + ")");
                continue;
            }
            if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() != 1
                    || response.getTopics(0).getPartitionsCount() != 1) {
                problems.add(controller + " answered " + response.getErrorCode());
                continue;
            }
            DescribeQuorumPartitionResponse partition = response.getTopics(0).getPartitions(0);
            if (partition.getErrorCode() == ErrorCode.NONE) {
                return new LeaderAnswer(controller, response);
            }
            if (partition.getErrorCode() == ErrorCode.NOT_LEADER_OR_FOLLOWER) {
                knownLeader = Math.max(knownLeader, partition.getLeaderId());
                addressOf(response, partition.getLeaderId()).ifPresent(toAsk::addFirst);
                problems.add(controller + " is not the leader (" + (partition.getLeaderId() < 0
                        ? "no leader known in epoch " + partition.getLeaderEpoch()
                        : "leader is node " + partition.getLeaderId() + " in epoch " + partition.getLeaderEpoch()) + ")");
            } else {
                problems.add(controller + " answered " + partition.getErrorCode());
            }
        }
        String hint = knownLeader >= 0
                ? "; add node " + knownLeader + "'s address to --bootstrap-controller (a comma-separated list is tried in order)"
                : "";
        throw new CommandFailure("no quorum leader answered: " + String.join("; ", problems) + hint);
    }

    /** Where the answering node reaches {@code nodeId}, if it said. */
    private static Optional<HostPort> addressOf(DescribeQuorumResponse response, int nodeId) {
        return response.getNodesList().stream()
                .filter(node -> nodeId >= 0 && node.getNodeId() == nodeId && !node.getHost().isEmpty()
                        && node.getPort() > 0 && node.getPort() <= PORT_MAX)
                .findFirst()
                .map(node -> new HostPort(node.getHost(), node.getPort()));
    }
}

package io.metaquorum.cli;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.transport.grpc.DescribeQuorumClient;
import io.metaquorum.server.HostPort;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the quorum leader's DescribeQuorum answer by asking the given controllers in order.
 * Only the leader answers with replica progress; any other node answers
 * NOT_LEADER_OR_FOLLOWER naming the leader it knows, but DescribeQuorum carries no
 * addresses, so the tool cannot follow that hint by itself: it goes on with the next
 * address of {@code --bootstrap-controller} (a comma-separated list), and if none is the
 * leader it says which node is, so the user can add its address.
 */
final class QuorumLeaderLookup {
    private QuorumLeaderLookup() {
    }

    static DescribeQuorumResponse describeLeader(List<HostPort> controllers, long timeoutMs) {
        List<String> problems = new ArrayList<>();
        int knownLeader = -1;
        for (HostPort controller : controllers) {
            DescribeQuorumResponse response;
            try (DescribeQuorumClient client = new DescribeQuorumClient(controller.toAddress(), timeoutMs)) {
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
                return response;
            }
            if (partition.getErrorCode() == ErrorCode.NOT_LEADER_OR_FOLLOWER) {
                knownLeader = Math.max(knownLeader, partition.getLeaderId());
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
}

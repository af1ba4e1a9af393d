package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterIdGuardTest {
    private final List<String> faults = new ArrayList<>();
    private final List<RaftMessage> delivered = new ArrayList<>();

    private static RaftResponse inconsistentVote(int from) {
        return new RaftResponse(from, 3, 1, VoteResponse.newBuilder().setErrorCode(ErrorCode.INCONSISTENT_CLUSTER_ID).build());
    }

    @Test
    void aMinorityOfForeignPeersIsLoggedNotFatal() {
        ClusterIdGuard guard = new ClusterIdGuard(1, "ours", List.of(1, 2, 3), (message, cause) -> faults.add(message));
        guard.wrap(delivered::add).deliver(inconsistentVote(3));
        guard.wrap(delivered::add).deliver(inconsistentVote(3));
        assertEquals(List.of(), faults);
        assertEquals(2, delivered.size(), "messages still reach the core");
    }

    @Test
    void aMajorityOfForeignVotersStopsTheNode() {
        ClusterIdGuard guard = new ClusterIdGuard(3, "ours", List.of(1, 2, 3), (message, cause) -> faults.add(message));
        guard.inspect(inconsistentVote(1));
        assertEquals(List.of(), faults);
        guard.inspect(new RaftResponse(2, 3, 2,
                FetchResponse.newBuilder().setErrorCode(ErrorCode.INCONSISTENT_CLUSTER_ID).build()));
        assertEquals(1, faults.size());
        assertTrue(faults.get(0).startsWith("[node 3] voters [1, 2] of [1, 2, 3] belong to another cluster"),
                faults.get(0));
    }

    @Test
    void otherErrorsAndNonVotersAreIgnored() {
        ClusterIdGuard guard = new ClusterIdGuard(1, "ours", List.of(1, 2), (message, cause) -> faults.add(message));
        guard.inspect(new RaftResponse(2, 1, 1, VoteResponse.newBuilder().setErrorCode(ErrorCode.FENCED_LEADER_EPOCH).build()));
        guard.inspect(inconsistentVote(9));
        assertEquals(List.of(), faults);
    }
}

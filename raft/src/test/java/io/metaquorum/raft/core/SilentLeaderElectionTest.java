package io.metaquorum.raft.core;

import io.metaquorum.raft.RoleName;
import static io.metaquorum.raft.core.OneReplica.requestsOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.core.handler.RaftRpcs;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pre-votes when the leader goes silent (a frozen process: no answer, no reset). Replica 1
 * of voters {1, 2, 3} follows leader 2 in epoch 4; the test plays 2 (frozen) and 3.
 */
class SilentLeaderElectionTest {
    private static final int EPOCH = 4;

    private static OneReplica followerOfTwo() {
        OneReplica replica = new OneReplica(1, OneReplica.storeAt(new ElectionState(EPOCH, 2, -1)),
                new InMemoryRaftLog());
        replica.step();
        assertEquals(RoleName.FOLLOWER, replica.core.status().role());
        return replica;
    }

    /** Runs the replica to its fetch timeout; returns its pre-vote request to voter 3. */
    private static RaftRequest preVoteToThree(OneReplica replica) {
        List<RaftMessage> out = replica.advance(2_000);
        assertEquals(RoleName.PROSPECTIVE, replica.core.status().role());
        return requestTo(out, 3);
    }

    private static RaftRequest requestTo(List<RaftMessage> out, int voterId) {
        return requestsOf(out, VoteRequest.class).stream().filter(r -> r.destinationId() == voterId).findFirst()
                .orElseThrow(() -> new AssertionError("no vote request to " + voterId + " in " + out));
    }

    /** Voter 3's refusal while it still follows 2: it names the leader it hears from. */
    private static VoteResponse stillFollowingTwo(boolean granted) {
        return RaftRpcs.voteResponse(ErrorCode.NONE, 2, EPOCH, granted);
    }

    private static void runUntilRole(OneReplica replica, RoleName role, long boundMs) {
        for (long waited = 0; replica.core.status().role() != role; waited += 10) {
            if (waited > boundMs) {
                throw new AssertionError("not " + role + " within " + boundMs + " ms: " + replica.core.status());
            }
            replica.advance(10);
        }
    }

    private static boolean grantsPreVoteOfThree(OneReplica replica) {
        VoteResponse answer = OneReplica.only(replica.request(3, replica.voteFrom(3, EPOCH, 0, 0, true)),
                VoteResponse.class);
        return answer.getTopics(0).getPartitions(0).getVoteGranted();
    }

    @Test
    void aVoterBackFromALostPreVoteHasNotHeardFromTheLeaderAndGrantsItsPeers() {
        OneReplica replica = followerOfTwo();
        replica.respond(preVoteToThree(replica), stillFollowingTwo(false));
        runUntilRole(replica, RoleName.FOLLOWER, 2_000);
        assertEquals(2, replica.core.status().leaderId());
        assertTrue(grantsPreVoteOfThree(replica), "returning from the pre-vote is not a fetch from the leader");
    }

    @Test
    void aVoterThatRefusedAndThenPreVotesItselfIsAskedAgainAndTheLowerIdWins() {
        OneReplica replica = followerOfTwo();
        replica.respond(preVoteToThree(replica), stillFollowingTwo(false));
        // Voter 3 reaches its own fetch timeout a moment later and asks replica 1, which makes it wait...
        List<RaftMessage> out = replica.request(3, replica.voteFrom(3, EPOCH, 0, 0, true));
        assertFalse(OneReplica.only(out, VoteResponse.class).getTopics(0).getPartitions(0).getVoteGranted());
        // ...and asks voter 3 again, which now grants: it has lost the leader too.
        RaftRequest again = requestTo(out, 3);
        assertTrue(((VoteRequest) again.payload()).getTopics(0).getPartitions(0).getPreVote());
        replica.respond(again, RaftRpcs.voteResponse(ErrorCode.NONE, -1, EPOCH, true));
        assertEquals(RoleName.CANDIDATE, replica.core.status().role());
        assertEquals(EPOCH + 1, replica.core.status().epoch());
    }

    @Test
    void aRefusalOvertakenByTheRefusersOwnPreVoteIsAskedAgain() {
        OneReplica replica = followerOfTwo();
        RaftRequest first = preVoteToThree(replica);
        // Voter 3's pre-vote arrives first; its refusal of ours, sent a moment earlier, arrives after it.
        assertFalse(grantsPreVoteOfThree(replica));
        List<RaftMessage> out = replica.respond(first, stillFollowingTwo(false));
        RaftRequest again = requestTo(out, 3);
        replica.respond(again, RaftRpcs.voteResponse(ErrorCode.NONE, -1, EPOCH, true));
        assertEquals(RoleName.CANDIDATE, replica.core.status().role());
    }

    @Test
    void aLowerIdThatHasNotWonSoonAfterMakingAHigherIdWaitConcedesAndSaysSo() {
        OneReplica replica = followerOfTwo();
        preVoteToThree(replica);
        // Voter 3's answer to our pre-vote never comes (we may be unable to reach it); its own pre-vote does.
        assertFalse(grantsPreVoteOfThree(replica), "the lower id with the same log goes first");
        List<RaftMessage> out = replica.advance(99);
        assertTrue(requestsOf(out, VoteRequest.class).isEmpty());
        out = replica.advance(1);
        RaftRequest nudge = requestTo(out, 3);
        assertTrue(((VoteRequest) nudge.payload()).getTopics(0).getPartitions(0).getPreVote(),
                "a tenth of the election timeout later it asks voter 3 again, so voter 3 asks it again");
        assertEquals(RoleName.FOLLOWER, replica.core.status().role(), "it gave the round up");
        assertTrue(grantsPreVoteOfThree(replica), "and now grants voter 3: it claims no priority any more");
    }

    @Test
    void aLowerIdThatLostARoundNoLongerMakesAHigherIdWait() {
        OneReplica replica = followerOfTwo();
        RaftRequest first = preVoteToThree(replica);
        assertFalse(grantsPreVoteOfThree(replica), "first round: the lower id with the same log goes first");
        replica.respond(first, stillFollowingTwo(false));
        runUntilRole(replica, RoleName.FOLLOWER, 2_000);
        runUntilRole(replica, RoleName.PROSPECTIVE, 3_100);
        assertTrue(grantsPreVoteOfThree(replica), "second round: it may be the one that cannot win");
    }

    @Test
    void aFollowerCutOffFromAHealthyLeaderPreVotesAtMostOncePerElectionTimeoutAndNeverChangesTheEpoch() {
        OneReplica replica = followerOfTwo();
        List<RaftMessage> out = replica.advance(2_000);
        for (int round = 0; round < 5; round++) {
            assertEquals(RoleName.PROSPECTIVE, replica.core.status().role());
            for (RaftRequest r : requestsOf(out, VoteRequest.class)) {
                replica.respond(r, stillFollowingTwo(false));
            }
            assertEquals(RoleName.FOLLOWER, replica.core.status().role(), "refused by both: lost at once");
            long lostAt = replica.nowMs;
            out = advanceToProspective(replica);
            assertTrue(replica.nowMs - lostAt >= 1_000, "waited " + (replica.nowMs - lostAt) + " ms");
        }
        assertEquals(EPOCH, replica.core.status().epoch());
    }

    private static List<RaftMessage> advanceToProspective(OneReplica replica) {
        for (int i = 0; i < 500; i++) {
            List<RaftMessage> out = replica.advance(10);
            if (replica.core.status().role() == RoleName.PROSPECTIVE) {
                return out;
            }
        }
        throw new AssertionError("no pre-vote within 5 s: " + replica.core.status());
    }

    @Test
    void oneResetFromAHealthyLeaderIsAnsweredByReconnectingNotByAPreVote() {
        OneReplica replica = new OneReplica(1, OneReplica.storeAt(new ElectionState(EPOCH, 2, -1)), new InMemoryRaftLog());
        RaftRequest fetch = requestsOf(replica.step(), FetchRequest.class).get(0);
        List<RaftMessage> out = replica.fail(fetch, RequestFailure.Reason.UNREACHABLE);
        assertEquals(1, requestsOf(out, FetchRequest.class).size(), "reconnects at once");
        replica.advance(500);
        assertEquals(RoleName.FOLLOWER, replica.core.status().role(), "the reconnected fetch is parked, not failed");
    }
}

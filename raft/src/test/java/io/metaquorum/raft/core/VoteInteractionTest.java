package io.metaquorum.raft.core;

import io.metaquorum.raft.RoleName;
import static io.metaquorum.raft.core.OneReplica.only;
import static io.metaquorum.raft.core.OneReplica.vote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.VotePartitionResponse;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.core.handler.RaftRpcs;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.QuorumStateStore;
import io.metaquorum.raft.storage.StorageException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Vote and pre-vote, one rule per test. */
class VoteInteractionTest {

    private static VotePartitionResponse answer(List<RaftMessage> out) {
        return only(out, VoteResponse.class).getTopics(0).getPartitions(0);
    }

    @Test
    void voteWithAStaleEpochIsRefused() {
        OneReplica replica = new OneReplica(OneReplica.storeAt(new ElectionState(5, -1, -1)));
        VotePartitionResponse answer = answer(replica.request(2, vote(2, 4, 0, 0, false)));
        assertEquals(ErrorCode.FENCED_LEADER_EPOCH, answer.getErrorCode());
        assertFalse(answer.getVoteGranted());
        assertEquals(5, answer.getLeaderEpoch());
        assertEquals(5, replica.core.status().epoch());
    }

    @Test
    void aVoteIsPersistedBeforeItIsGranted() {
        InMemoryQuorumStateStore store = new InMemoryQuorumStateStore();
        OneReplica replica = new OneReplica(store);
        VotePartitionResponse answer = answer(replica.request(2, vote(2, 1, 0, 0, false)));
        assertTrue(answer.getVoteGranted());
        assertEquals(Optional.of(new ElectionState(1, -1, 2)), store.read());
    }

    @Test
    void aVoteThatCannotBePersistedIsNeverGranted() {
        QuorumStateStore failing = new QuorumStateStore() {
            private ElectionState state = ElectionState.INITIAL;

            @Override
            public Optional<ElectionState> read() {
                return Optional.of(state);
            }

            @Override
            public void write(ElectionState next) {
                if (next.hasVoted()) {
                    throw new StorageException("disk full");
                }
                state = next;
            }
        };
        OneReplica replica = new OneReplica(failing);
        assertThrows(StorageException.class, () -> replica.request(2, vote(2, 1, 0, 0, false)));
        assertTrue(OneReplica.all(replica.core.takeOutbound(), VoteResponse.class).isEmpty());
    }

    @Test
    void aVoteGoesOnlyToACandidateWhoseLogIsAtLeastAsUpToDate() {
        // Our log: offsets 0-2 in epoch 1, 3-4 in epoch 2 (end offset 5, last epoch 2).
        OneReplica replica = new OneReplica(OneReplica.storeAt(new ElectionState(2, -1, -1)),
                OneReplica.logWithEpochs(1, 1, 1, 2, 2));
        assertFalse(answer(replica.request(2, vote(2, 3, 1, 10, false))).getVoteGranted(), "older last epoch");
        assertFalse(answer(replica.request(2, vote(2, 3, 2, 4, false))).getVoteGranted(), "shorter log");
        assertTrue(answer(replica.request(3, vote(3, 3, 2, 5, false))).getVoteGranted(), "same log");
    }

    @Test
    void oneVotePerEpoch() {
        OneReplica replica = new OneReplica();
        assertTrue(answer(replica.request(2, vote(2, 1, 0, 0, false))).getVoteGranted());
        assertFalse(answer(replica.request(3, vote(3, 1, 0, 0, false))).getVoteGranted());
        assertTrue(answer(replica.request(2, vote(2, 1, 0, 0, false))).getVoteGranted(), "a retry is idempotent");
    }

    @Test
    void aPreVoteNeverBumpsTheEpochNorPersistsAnything() {
        InMemoryQuorumStateStore store = OneReplica.storeAt(new ElectionState(3, -1, -1));
        OneReplica replica = new OneReplica(store);
        VotePartitionResponse answer = answer(replica.request(2, vote(2, 7, 0, 0, true)));
        assertTrue(answer.getVoteGranted());
        assertEquals(3, replica.core.status().epoch());
        assertEquals(Optional.of(new ElectionState(3, -1, -1)), store.read());
    }

    @Test
    void aPreVoteIsRefusedWhileTheLeaderIsHeardFrom() {
        // Replica 3 (so that the candidate, 1, has the lower id) following leader 2.
        OneReplica replica = new OneReplica(3, OneReplica.storeAt(new ElectionState(3, 2, -1)),
                new InMemoryRaftLog());
        assertEquals(RoleName.FOLLOWER, replica.core.status().role());
        assertFalse(answer(replica.request(1, replica.voteFrom(1, 3, 0, 0, true))).getVoteGranted());
        replica.advance(2_001);
        assertTrue(answer(replica.request(1, replica.voteFrom(1, 3, 0, 0, true))).getVoteGranted(),
                "granted once the fetch timeout passed without hearing from the leader");
    }

    @Test
    void aPreVotingReplicaMakesAHigherIdWithAnEqualLogWait() {
        // Replica 2 of voters 1-3, log ending at offset 2 in epoch 1, pre-voting for epoch 2.
        OneReplica replica = new OneReplica(2, OneReplica.storeAt(new ElectionState(1, -1, -1)), OneReplica.logWithEpochs(1, 1));
        replica.advance(3_000);
        assertEquals(RoleName.PROSPECTIVE, replica.core.status().role());
        VotePartitionResponse sameLog = answer(replica.request(3, replica.voteFrom(3, 2, 1, 2, true)));
        assertEquals(ErrorCode.NONE, sameLog.getErrorCode());
        assertFalse(sameLog.getVoteGranted(), "a higher id with the same log waits, so the two do not split the real vote");
        assertTrue(answer(replica.request(3, replica.voteFrom(3, 2, 1, 3, true))).getVoteGranted(),
                "a higher id with a longer log is granted: only it can win");
        assertTrue(answer(replica.request(1, replica.voteFrom(1, 2, 1, 2, true))).getVoteGranted(),
                "a lower id with the same log is granted");
        assertEquals(RoleName.PROSPECTIVE, replica.core.status().role());
        assertEquals(1, replica.core.status().epoch());
    }

    @Test
    void votesFromUnknownNodesAndMalformedVotesAreRefusedWithCodes() {
        OneReplica replica = new OneReplica();
        assertEquals(ErrorCode.INCONSISTENT_VOTER_SET, answer(replica.request(9, vote(9, 1, 0, 0, false))).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, answer(replica.request(2, vote(2, 1, 0, -5, false))).getErrorCode());
        assertEquals(0, replica.core.status().epoch());
    }

    @Test
    void aWrongClusterOrTopicIdIsRefusedAndChangesNoState() {
        InMemoryQuorumStateStore store = new InMemoryQuorumStateStore();
        OneReplica replica = new OneReplica(store);
        var otherCluster = RaftRpcs.voteRequest("other-cluster", 1, 4, 2, 0, 0, false);
        assertEquals(ErrorCode.INCONSISTENT_CLUSTER_ID,
                only(replica.request(2, otherCluster), VoteResponse.class).getErrorCode());
        var otherTopic = vote(2, 4, 0, 0, false).toBuilder();
        otherTopic.getTopicsBuilder(0).setTopicId(io.metaquorum.raft.TopicIds.uuid(7, 7));
        assertEquals(ErrorCode.INCONSISTENT_TOPIC_ID,
                only(replica.request(2, otherTopic.build()), VoteResponse.class).getErrorCode());
        assertEquals(0, replica.core.status().epoch());
        assertEquals(ElectionState.INITIAL, store.read().orElse(ElectionState.INITIAL));
    }
}

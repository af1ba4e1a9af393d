package io.metaquorum.raft.core;

import static io.metaquorum.raft.core.OneReplica.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.protocol.VotePartitionResponse;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.CoreCluster.Node;
import io.metaquorum.raft.core.handler.RaftRpcs;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** KIP-853 in the core: voters are (node id, directory id); anything else is an observer. */
class DirectoryIdInteractionTest {
    private static final Uuid NEW_DIRECTORY = TopicIds.uuid(0xBEEF, 3);

    private static VoterSet initialVoters() {
        List<VoterSet.Voter> voters = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            voters.add(new VoterSet.Voter(new ReplicaKey(id, CoreCluster.directoryId(id)), List.of()));
        }
        return VoterSet.of(voters);
    }

    private static OneReplica replicaOne() {
        RaftConfig base = CoreCluster.config(1, OneReplica.VOTERS);
        return new OneReplica(new RaftConfig(base.clusterId(), 1, base.voterIds(), base.timeouts(), base.limits(),
                CoreCluster.directoryId(1), Optional.of(initialVoters())));
    }

    private static VotePartitionResponse answer(List<RaftMessage> out) {
        return only(out, VoteResponse.class).getTopics(0).getPartitions(0);
    }

    private static io.metaquorum.protocol.VoteRequest vote(ReplicaKey candidate, Uuid voterDirectory) {
        return RaftRpcs.voteRequest(CoreCluster.CLUSTER_ID, new ReplicaKey(1, voterDirectory), 1, candidate, 0, 0,
                false);
    }

    @Test
    void aVoteIsGrantedToACandidateWhoseDirectoryIdIsTheVoterSets() {
        OneReplica replica = replicaOne();
        VotePartitionResponse granted = answer(replica.request(2,
                vote(new ReplicaKey(2, CoreCluster.directoryId(2)), CoreCluster.directoryId(1))));
        assertEquals(ErrorCode.NONE, granted.getErrorCode());
        assertTrue(granted.getVoteGranted());
    }

    @Test
    void aVoteIsRefusedToACandidateWithAnotherDirectoryId() {
        OneReplica replica = replicaOne();
        VotePartitionResponse refused = answer(replica.request(2,
                vote(new ReplicaKey(2, NEW_DIRECTORY), CoreCluster.directoryId(1))));
        assertEquals(ErrorCode.NONE, refused.getErrorCode());
        assertFalse(refused.getVoteGranted(), "a reformatted voter has lost its log and its votes");
        assertEquals(-1, replica.store.read().orElseThrow().votedId(), "no vote persisted");
    }

    @Test
    void aVoteMeantForAnotherDirectoryOfThisNodeIsRefused() {
        OneReplica replica = replicaOne();
        VotePartitionResponse refused = answer(replica.request(2,
                vote(new ReplicaKey(2, CoreCluster.directoryId(2)), NEW_DIRECTORY)));
        assertEquals(ErrorCode.INCONSISTENT_VOTER_SET, refused.getErrorCode());
        assertFalse(refused.getVoteGranted());
    }

    /**
     * KIP-853: the candidate's voter set decides whose votes it needs, and this replica's may
     * be older (it has not fetched the VotersRecord that added the candidate yet).
     */
    @Test
    void aCandidateThisVoterSetDoesNotListIsAnswered() {
        OneReplica replica = replicaOne();
        VotePartitionResponse granted = answer(replica.request(4,
                vote(new ReplicaKey(4, NEW_DIRECTORY), CoreCluster.directoryId(1))));
        assertEquals(ErrorCode.NONE, granted.getErrorCode());
        assertTrue(granted.getVoteGranted());
    }

    /** A replica its own log does not list yet answers a candidate whose newer voter set names it. */
    @Test
    void aReplicaNotYetListedAnswersACandidateWhoseVoterSetNamesIt() {
        List<VoterSet.Voter> others = new ArrayList<>(initialVoters().voters());
        others.removeIf(voter -> voter.key().id() == 1);
        RaftConfig base = CoreCluster.config(1, OneReplica.VOTERS);
        OneReplica replica = new OneReplica(new RaftConfig(base.clusterId(), 1, base.voterIds(), base.timeouts(),
                base.limits(), CoreCluster.directoryId(1), Optional.of(VoterSet.of(others))));
        VotePartitionResponse granted = answer(replica.request(2,
                vote(new ReplicaKey(2, CoreCluster.directoryId(2)), CoreCluster.directoryId(1))));
        assertEquals(ErrorCode.NONE, granted.getErrorCode());
        assertTrue(granted.getVoteGranted());
        VotePartitionResponse refused = answer(replica.request(3,
                vote(new ReplicaKey(3, CoreCluster.directoryId(3)), NEW_DIRECTORY)));
        assertEquals(ErrorCode.INCONSISTENT_VOTER_SET, refused.getErrorCode(), "meant for another directory");
    }

    @Test
    void theFirstLeaderWritesTheInitialVotersIntoTheLog() throws InvalidProtocolBufferException {
        CoreCluster cluster = new CoreCluster(3, 1, 21, true);
        Node leader = cluster.awaitLeader();
        RecordBatch first = leader.log.read(0, 1 << 20).get(0);
        assertTrue(first.getControl());
        List<ControlRecord.RecordCase> cases = new ArrayList<>();
        for (var bytes : RecordBatches.records(first)) {
            cases.add(ControlRecord.parseFrom(bytes).getRecordCase());
        }
        assertEquals(List.of(ControlRecord.RecordCase.KRAFT_VERSION, ControlRecord.RecordCase.VOTERS,
                ControlRecord.RecordCase.LEADER_CHANGE), cases);
        List<String> leadership = leader.listener.takeLeadership();
        assertTrue(leadership.contains("lead " + leader.status().epoch() + " from 2"),
                "the epoch starts at the LeaderChangeRecord, after the voters: " + leadership);
        cluster.appendThroughLeader("a");
        cluster.runUntil(() -> cluster.node(4).listener.committed.equals(List.of("a")), 5_000);
        for (Node node : cluster.nodes.values()) {
            assertEquals(initialVoters(), node.core.voters(), "node " + node.id);
        }
    }

    @Test
    void aStaticVoterSetWritesNoVotersRecord() throws InvalidProtocolBufferException {
        CoreCluster cluster = new CoreCluster(3, 0, 22);
        Node leader = cluster.awaitLeader();
        RecordBatch first = leader.log.read(0, 1 << 20).get(0);
        assertEquals(1, first.getRecordCount());
        assertTrue(ControlRecord.parseFrom(RecordBatches.records(first).get(0)).hasLeaderChange());
    }

    /**
     * Voter 3 is wiped and reformatted (a new directory id, no initial voters) while voter 2 is
     * down: the leader is alone among the voters. Node 3 fetches everything, but as an observer,
     * so nothing commits until voter 2 is back.
     */
    @Test
    void aReformattedVoterIsAnObserverWhoseFetchesDoNotCommit() {
        CoreCluster cluster = new CoreCluster(3, 0, 23, true);
        Node leader = cluster.awaitLeader();
        cluster.appendThroughLeader("a");
        cluster.runUntil(() -> leader.listener.committed.equals(List.of("a")), 5_000);
        int[] others = cluster.nodes.keySet().stream().mapToInt(Integer::intValue).filter(id -> id != leader.id)
                .toArray();
        int down = others[0];
        int wiped = others[1];
        cluster.crash(down);
        cluster.wipeAndReformat(wiped, NEW_DIRECTORY);
        Node reformatted = cluster.node(wiped);
        long offset = cluster.appendThroughLeader("b");
        cluster.runUntil(() -> reformatted.log.endOffset() > offset, 5_000);
        assertEquals(initialVoters(), reformatted.core.voters(), "learned from the log");
        assertFalse(reformatted.core.voters().isVoter(new ReplicaKey(wiped, NEW_DIRECTORY)));
        cluster.runFor(3_000);
        assertTrue(leader.status().highWatermark() <= offset, "the observer's copy does not commit b");
        assertEquals(List.of("a"), leader.listener.committed);
        assertTrue(reformatted.status().role() == RoleName.FOLLOWER || reformatted.status().role() == RoleName.UNATTACHED,
                "never campaigns: " + reformatted.status().role());
        cluster.restart(down);
        cluster.runUntil(() -> leader.listener.committed.equals(List.of("a", "b")), 10_000);
    }
}

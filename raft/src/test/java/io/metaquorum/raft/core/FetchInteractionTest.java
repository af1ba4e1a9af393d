package io.metaquorum.raft.core;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.AppendResult;
import static io.metaquorum.raft.core.OneReplica.fetch;
import static io.metaquorum.raft.core.OneReplica.only;
import static io.metaquorum.raft.core.OneReplica.requestsOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.DivergingEpoch;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchPartitionResponse;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.core.handler.FetchRpcs;
import io.metaquorum.raft.core.handler.RaftRpcs;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.protocol.RecordBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Fetch, BeginQuorumEpoch, EndQuorumEpoch and the high-watermark rules, one rule per test. */
class FetchInteractionTest {

    private static FetchPartitionResponse partition(List<RaftMessage> out) {
        return only(out, FetchResponse.class).getTopics(0).getPartitions(0);
    }

    @Test
    void aFollowerWithADivergentTailTruncatesAndFetchesFromTheDivergencePoint() {
        // Ours: 0-2 in epoch 1, then 3-5 in epoch 2 that the new leader (epoch 3) never had.
        OneReplica replica = new OneReplica(OneReplica.storeAt(new ElectionState(3, 2, -1)),
                OneReplica.logWithEpochs(1, 1, 1, 2, 2, 2));
        List<RaftMessage> out = replica.step();
        RaftRequest first = requestsOf(out, FetchRequest.class).get(0);
        var sent = FetchRpcs.partition((FetchRequest) first.payload());
        assertEquals(6, sent.getFetchOffset());
        assertEquals(2, sent.getLastFetchedEpoch());
        FetchPartitionResponse diverging = FetchPartitionResponse.newBuilder()
                .setCurrentLeader(RaftRpcs.leader(2, 3)).setHighWatermark(3)
                .setDivergingEpoch(DivergingEpoch.newBuilder().setEpoch(1).setEndOffset(3)).build();
        out = replica.respond(first, FetchRpcs.fetchResponse(diverging));
        assertEquals(3, replica.log.endOffset());
        var next = FetchRpcs.partition((FetchRequest) requestsOf(out, FetchRequest.class).get(0).payload());
        assertEquals(3, next.getFetchOffset());
        assertEquals(1, next.getLastFetchedEpoch());
    }

    @Test
    void aFollowerWhoseTruncationCutABatchAppendsOnlyTheRestOfTheLeadersBatchHoldingItsEnd() {
        // Ours: 0-2 in epoch 1, then 3-4 in epoch 2, the cut front of a batch the leader holds whole as 3-6.
        OneReplica replica = new OneReplica(OneReplica.storeAt(new ElectionState(3, 2, -1)),
                OneReplica.logWithEpochs(1, 1, 1, 2, 2));
        List<RaftMessage> out = replica.step();
        RaftRequest first = requestsOf(out, FetchRequest.class).get(0);
        assertEquals(5, FetchRpcs.partition((FetchRequest) first.payload()).getFetchOffset());
        List<ByteString> records = List.of(ByteString.copyFromUtf8("r3"), ByteString.copyFromUtf8("r4"),
                ByteString.copyFromUtf8("r5"), ByteString.copyFromUtf8("r6"));
        FetchPartitionResponse holding = FetchPartitionResponse.newBuilder()
                .setCurrentLeader(RaftRpcs.leader(2, 3)).setHighWatermark(3)
                .addBatches(RecordBatches.build(3, 2, 0, false, records)).build();
        replica.respond(first, FetchRpcs.fetchResponse(holding));
        assertEquals(7, replica.log.endOffset());
        List<RecordBatch> appended = replica.log.read(5, Integer.MAX_VALUE);
        assertEquals(5, appended.get(0).getBaseOffset());
        assertEquals(List.of(ByteString.copyFromUtf8("r5"), ByteString.copyFromUtf8("r6")),
                RecordBatches.records(appended.get(0)));
    }

    @Test
    void theLeaderAnswersADivergingEpochForAFetchPastItsEpochEnd() {
        OneReplica replica = new OneReplica(new InMemoryQuorumStateStore(),
                OneReplica.logWithEpochs(0, 0, 0));
        replica.electAsLeader();
        // Replica 2 claims offsets up to 6 in epoch 0 although epoch 0 ends at 3 here.
        FetchPartitionResponse answer = partition(replica.request(2, fetch(2, replica.core.status().epoch(), 6, 0, 0)));
        assertTrue(answer.hasDivergingEpoch());
        assertEquals(0, answer.getDivergingEpoch().getEpoch());
        assertEquals(3, answer.getDivergingEpoch().getEndOffset());
    }

    @Test
    void theHighWatermarkNeverCommitsAnOldEpochEntryByCountingAlone() {
        // Raft's Figure 8: entries 0-2 of an old epoch are on a majority, but until an entry
        // of the current epoch is too, they must not count as committed.
        OneReplica replica = new OneReplica(new InMemoryQuorumStateStore(),
                OneReplica.logWithEpochs(0, 0, 0));
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        partition(replica.request(2, fetch(2, epoch, 3, 0, 0)));
        assertEquals(0, replica.core.status().highWatermark(), "old entries on a majority are not yet committed");
        FetchPartitionResponse caughtUp = partition(replica.request(2, fetch(2, epoch, 4, epoch, 0)));
        assertEquals(4, replica.core.status().highWatermark(), replica.core.status() + " " + caughtUp);
        assertEquals(4, caughtUp.getHighWatermark());
    }

    @Test
    void aLeaderWithoutAMajorityOfFetchersResigns() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        replica.advance(2_999);
        assertTrue(replica.core.status().isLeader());
        List<RaftMessage> out = replica.advance(2);
        assertEquals(RoleName.RESIGNED, replica.core.status().role());
        assertEquals(epoch, replica.core.status().epoch());
        assertEquals(2, requestsOf(out, EndQuorumEpochRequest.class).size());
    }

    @Test
    void aLongPollFetchIsAnsweredAsSoonAsARecordIsAppended() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        long end = replica.log.endOffset();
        partition(replica.request(2, fetch(2, epoch, end, epoch, 500)));
        assertEquals(end, replica.core.status().highWatermark(), "this fetch moved the high watermark: answered");
        assertTrue(replica.request(2, fetch(2, epoch, end, epoch, 500)).isEmpty(), "parked: nothing new");
        replica.core.append(epoch, List.of(ByteString.copyFromUtf8("x")), replica.nowMs);
        FetchPartitionResponse answer = partition(replica.step());
        assertEquals(1, answer.getBatchesCount());
        assertEquals(end, answer.getBatches(0).getBaseOffset());
    }

    @Test
    void aFetcherThatHasEveryRecordButNotTheCurrentHighWatermarkIsAnsweredAtOnce() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        long end = replica.log.endOffset();
        partition(replica.request(2, fetch(2, epoch, end, epoch, 500)));
        int observer = 7;
        assertEquals(end, partition(replica.request(observer, fetch(observer, epoch, end, epoch, 500)))
                .getHighWatermark(), "a new observer learns the high watermark at once");
        assertTrue(replica.request(observer, fetch(observer, epoch, end, epoch, 500)).isEmpty(),
                "parked: it knows everything");
        assertTrue(replica.request(2, fetch(2, epoch, end, epoch, 500)).isEmpty(), "the voter parks too");
        replica.core.append(epoch, List.of(ByteString.copyFromUtf8("x")), replica.nowMs);
        FetchPartitionResponse copied = partition(replica.step());
        assertEquals(1, copied.getBatchesCount(), "the voter alone is sent the record before it is committed");
        List<RaftMessage> out = replica.request(2, fetch(2, epoch, end + 1, epoch, 500));
        assertEquals(end + 1, replica.core.status().highWatermark(), "the voter's fetch committed it");
        List<RaftResponse> answers = out.stream().map(RaftResponse.class::cast).toList();
        assertEquals(List.of(2, observer), answers.stream().map(RaftResponse::destinationId).toList(),
                "both are told of the commit, the voter first");
        FetchPartitionResponse committed = ((FetchResponse) answers.get(1).payload()).getTopics(0).getPartitions(0);
        assertEquals(1, committed.getBatchesCount(), "the observer gets the record with its commit");
        assertEquals(end + 1, committed.getHighWatermark());
        assertTrue(replica.request(observer, fetch(observer, epoch, end + 1, epoch, 500)).isEmpty(),
                "and parks again once it knows it");
    }

    @Test
    void anObserverBehindTheHighWatermarkIsAnsweredAtOnceAndOneAtItWaitsForACommitNotAnAppend() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        long end = replica.log.endOffset();
        int observer = 7;
        partition(replica.request(2, fetch(2, epoch, end, epoch, 500)));
        assertEquals(1, partition(replica.request(observer, fetch(observer, epoch, end - 1, epoch, 500)))
                .getBatchesCount(), "committed records it lacks: answered at once");
        assertTrue(replica.request(observer, fetch(observer, epoch, end, epoch, 500)).isEmpty(),
                "parked: it has every committed record");
        replica.core.append(epoch, List.of(ByteString.copyFromUtf8("x")), replica.nowMs);
        assertTrue(replica.step().isEmpty(), "an append does not wake it");
        FetchPartitionResponse waited = partition(replica.advance(500));
        assertEquals(end, waited.getHighWatermark(), "answered when its wait is over, the commit point unchanged");
        assertTrue(replica.request(observer, fetch(observer, epoch, end + 1, epoch, 500)).isEmpty(),
                "past the high watermark: parked until the next commit");
    }

    @Test
    void aLeaderMovedToAHigherEpochAnswersItsParkedFetchesWithTheNewEpochAtOnce() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        long end = replica.log.endOffset();
        partition(replica.request(2, fetch(2, epoch, end, epoch, 500)));
        assertTrue(replica.request(2, fetch(2, epoch, end, epoch, 500)).isEmpty(), "parked: nothing new");
        // Voter 3 campaigns in a later epoch (the leader was cut off from it); its vote moves the leader there.
        List<RaftMessage> out = replica.request(3, replica.voteFrom(3, epoch + 1, epoch, end, false));
        assertFalse(replica.core.status().isLeader());
        FetchPartitionResponse answer = partition(out);
        assertEquals(ErrorCode.FENCED_LEADER_EPOCH, answer.getErrorCode());
        assertEquals(epoch + 1, answer.getCurrentLeader().getLeaderEpoch(), "the fetcher learns the new epoch now");
    }

    @Test
    void staleAndMalformedFetchesGetErrorCodes() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        assertEquals(ErrorCode.FENCED_LEADER_EPOCH, partition(replica.request(2, fetch(2, epoch - 1, 0, 0, 0))).getErrorCode());
        assertEquals(ErrorCode.UNKNOWN_LEADER_EPOCH, partition(replica.request(2, fetch(2, epoch + 1, 0, 0, 0))).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, partition(replica.request(2, fetch(2, epoch, -1, 0, 0))).getErrorCode());
        var otherTopic = fetch(2, epoch, 0, 0, 0).toBuilder();
        otherTopic.getTopicsBuilder(0).setTopicId(TopicIds.ZERO);
        assertEquals(ErrorCode.INCONSISTENT_TOPIC_ID,
                only(replica.request(2, otherTopic.build()), FetchResponse.class).getErrorCode());
        assertTrue(replica.core.status().isLeader());
    }

    /** Replica id -1 is KIP-595's anonymous observer (mq-metadata shell's live mode): served, not tracked. */
    @Test
    void anAnonymousObserverIsServedAndLeavesNoProgress() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        FetchPartitionResponse answer = partition(replica.request(RaftRequest.CLIENT, fetch(-1, epoch, 0, 0, 0)));
        assertEquals(ErrorCode.NONE, answer.getErrorCode());
        assertTrue(answer.getBatchesCount() > 0, "the leader's epoch-start record is served");
        assertEquals(ErrorCode.INVALID_REQUEST,
                partition(replica.request(RaftRequest.CLIENT, fetch(-2, epoch, 0, 0, 0))).getErrorCode());
        var described = only(replica.request(RaftRequest.CLIENT,
                io.metaquorum.raft.transport.grpc.QuorumClient.metadataQuorumRequest()),
                io.metaquorum.protocol.DescribeQuorumResponse.class).getTopics(0).getPartitions(0);
        assertEquals(0, described.getObserversCount(), described.toString());
    }

    @Test
    void beginQuorumEpochMakesAVoterFollowAndAStaleOneIsFenced() {
        OneReplica replica = new OneReplica();
        var begin = RaftRpcs.beginQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 2, 4);
        var answer = only(replica.request(2, begin), BeginQuorumEpochResponse.class).getTopics(0).getPartitions(0);
        assertEquals(ErrorCode.NONE, answer.getErrorCode());
        assertEquals(RoleName.FOLLOWER, replica.core.status().role());
        assertEquals(2, replica.core.status().leaderId());
        var stale = RaftRpcs.beginQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 3, 3);
        assertEquals(ErrorCode.FENCED_LEADER_EPOCH, only(replica.request(3, stale), BeginQuorumEpochResponse.class)
                .getTopics(0).getPartitions(0).getErrorCode());
        assertEquals(2, replica.core.status().leaderId());
    }

    @Test
    void theFirstPreferredSuccessorCampaignsAtOnceWithoutAPreVote() {
        InMemoryQuorumStateStore store = OneReplica.storeAt(new ElectionState(4, 2, -1));
        OneReplica replica = new OneReplica(store);
        var end = RaftRpcs.endQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 2, 4, List.of(1, 3));
        List<RaftMessage> out = replica.request(2, end);
        assertEquals(RoleName.CANDIDATE, replica.core.status().role());
        assertEquals(Optional.of(new ElectionState(5, -1, 1)), store.read(), "its own vote, persisted first");
        List<RaftRequest> votes = requestsOf(out, VoteRequest.class);
        assertEquals(2, votes.size());
        for (RaftRequest vote : votes) {
            VotePartitionRequest p = ((VoteRequest) vote.payload()).getTopics(0).getPartitions(0);
            assertFalse(p.getPreVote(), "the leader handed over: no pre-vote");
            assertEquals(5, p.getReplicaEpoch());
        }
        assertFalse(replica.core.status().isLeader());
    }

    @Test
    void aFollowerThatWasNotNamedStillPreVotes() {
        OneReplica replica = new OneReplica(OneReplica.storeAt(new ElectionState(4, 2, -1)));
        var end = RaftRpcs.endQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 2, 4, List.of(3));
        replica.request(2, end);
        replica.advance(3_000);
        assertEquals(RoleName.PROSPECTIVE, replica.core.status().role());
        assertEquals(4, replica.core.status().epoch());
    }

    @Test
    void aLaterPreferredSuccessorWaitsItsTurnEvenAfterTheResignedLeaderRefusesAFetch() {
        OneReplica replica = new OneReplica(OneReplica.storeAt(new ElectionState(4, 2, -1)));
        RaftRequest fetch = requestsOf(replica.step(), FetchRequest.class).get(0);
        FetchPartitionResponse notLeader = FetchPartitionResponse.newBuilder()
                .setErrorCode(ErrorCode.NOT_LEADER_OR_FOLLOWER).setCurrentLeader(RaftRpcs.leader(-1, 4))
                .setHighWatermark(-1).build();
        replica.respond(fetch, FetchRpcs.fetchResponse(notLeader));
        var end = RaftRpcs.endQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 2, 4, List.of(3, 1));
        replica.request(2, end);
        replica.advance(400);
        assertEquals(RoleName.FOLLOWER, replica.core.status().role(), "second in line: waits 500 ms");
        replica.advance(101);
        assertEquals(RoleName.CANDIDATE, replica.core.status().role(), "its turn: campaigns without a pre-vote");
    }

    @Test
    void aVoterThatStopsFetchingIsToldTheEpochAgainAndAHigherEpochInItsAnswerDeposesTheLeader() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        replica.request(2, fetch(2, epoch, replica.log.endOffset(), epoch, 0));
        replica.request(3, fetch(3, epoch, replica.log.endOffset(), epoch, 0));
        List<RaftRequest> begins = new ArrayList<>();
        // Voter 2 keeps fetching (and the leader its majority); voter 3 falls silent.
        for (int i = 0; i < 6 && begins.isEmpty(); i++) {
            begins.addAll(requestsOf(replica.advance(200), BeginQuorumEpochRequest.class));
            replica.request(2, fetch(2, epoch, replica.log.endOffset(), epoch, 0));
        }
        assertEquals(1, begins.size(), "re-sent once voter 3 went half a fetch timeout without fetching");
        assertEquals(3, begins.get(0).destinationId());
        replica.respond(begins.get(0), RaftRpcs.beginQuorumEpochResponse(ErrorCode.FENCED_LEADER_EPOCH, -1, epoch + 1));
        assertFalse(replica.core.status().isLeader(), "voter 3 was stranded in a later epoch: step down for it");
        assertEquals(epoch + 1, replica.core.status().epoch());
    }

    @Test
    void aResigningLeaderNamesTheVotersStillFetchingFirstEvenIfOneThatStoppedIsFurtherAhead() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        long behind = replica.log.endOffset();
        replica.core.append(epoch, List.of(ByteString.copyFromUtf8("x")), replica.nowMs);
        replica.step();
        replica.request(3, fetch(3, epoch, replica.log.endOffset(), epoch, 0));
        for (int i = 0; i < 4; i++) {
            replica.advance(400);
            replica.request(2, fetch(2, epoch, behind, epoch, 0));
        }
        replica.core.beginShutdown(replica.nowMs);
        assertTrue(requestsOf(replica.step(), EndQuorumEpochRequest.class).isEmpty(),
                "voter 2, the first successor, has not fetched the last record yet");
        List<RaftRequest> ends = requestsOf(replica.advance(250), EndQuorumEpochRequest.class);
        assertEquals(2, ends.size(), "it did not catch up within a quarter election timeout: resign anyway");
        EndQuorumEpochRequest end = (EndQuorumEpochRequest) ends.get(0).payload();
        assertEquals(List.of(2, 3), end.getTopics(0).getPartitions(0).getPreferredSuccessorsList(),
                "voter 3 is one record ahead but has not fetched for 1.6 s");
    }

    @Test
    void aShuttingDownLeaderResignsOnceItsFirstSuccessorHasFetchedTheWholeLog() {
        OneReplica replica = new OneReplica();
        replica.electAsLeader();
        int epoch = replica.core.status().epoch();
        replica.request(2, fetch(2, epoch, replica.log.endOffset(), epoch, 0));
        replica.request(3, fetch(3, epoch, replica.log.endOffset(), epoch, 0));
        replica.core.append(epoch, List.of(ByteString.copyFromUtf8("last")), replica.nowMs);
        replica.step();
        replica.core.beginShutdown(replica.nowMs);
        assertTrue(requestsOf(replica.step(), EndQuorumEpochRequest.class).isEmpty(), "both are one record behind");
        assertEquals(AppendResult.Status.NOT_LEADER,
                replica.core.append(epoch, List.of(ByteString.copyFromUtf8("late")), replica.nowMs).status());
        replica.advance(5);
        List<RaftMessage> out = replica.request(3, fetch(3, epoch, replica.log.endOffset(), epoch, 0));
        List<RaftRequest> ends = requestsOf(out, EndQuorumEpochRequest.class);
        assertEquals(2, ends.size(), "voter 3 holds the whole log: hand over to it now");
        EndQuorumEpochRequest end = (EndQuorumEpochRequest) ends.get(0).payload();
        assertEquals(List.of(3, 2), end.getTopics(0).getPartitions(0).getPreferredSuccessorsList());
    }

    @Test
    void survivorsOfAnUnreachableLeaderPreVoteInTurnsByIdOnceTheReconnectFailsToo() {
        OneReplica first = new OneReplica(1, OneReplica.storeAt(new ElectionState(4, 2, -1)),
                new InMemoryRaftLog());
        RaftRequest fetch = requestsOf(first.step(), FetchRequest.class).get(0);
        fetch = requestsOf(first.fail(fetch, RequestFailure.Reason.UNREACHABLE), FetchRequest.class).get(0);
        assertEquals(RoleName.FOLLOWER, first.core.status().role(), "one reset alone: reconnect at once first");
        first.fail(fetch, RequestFailure.Reason.UNREACHABLE);
        first.advance(19);
        assertEquals(RoleName.FOLLOWER, first.core.status().role());
        first.advance(1);
        assertEquals(RoleName.PROSPECTIVE, first.core.status().role(), "voter 1 is the lowest survivor of leader 2");

        OneReplica second = new OneReplica(3, OneReplica.storeAt(new ElectionState(4, 2, -1)),
                new InMemoryRaftLog());
        fetch = requestsOf(second.step(), FetchRequest.class).get(0);
        fetch = requestsOf(second.fail(fetch, RequestFailure.Reason.UNREACHABLE), FetchRequest.class).get(0);
        second.fail(fetch, RequestFailure.Reason.UNREACHABLE);
        second.advance(69);
        assertEquals(RoleName.FOLLOWER, second.core.status().role(), "voter 3 lets voter 1 go first");
        second.advance(1);
        assertEquals(RoleName.PROSPECTIVE, second.core.status().role());
    }
}

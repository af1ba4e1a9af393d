package io.metaquorum.raft.core;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchRequest;
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
import io.metaquorum.raft.storage.QuorumStateStore;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Replica 1 of voters {1, 2, 3} driven by hand: the test plays replicas 2 and 3 and
 * reads exactly what replica 1 sends.
 */
final class OneReplica {
    static final List<Integer> VOTERS = List.of(1, 2, 3);

    final int localId;
    final InMemoryRaftLog log = new InMemoryRaftLog();
    final QuorumStateStore store;
    final CoreCluster.RecordingListener listener = new CoreCluster.RecordingListener();
    final RaftCore core;
    long nowMs = 10_000;
    private long nextCorrelationId = 1_000;

    OneReplica() {
        this(new InMemoryQuorumStateStore());
    }

    OneReplica(QuorumStateStore store) {
        this(store, new InMemoryRaftLog());
    }

    OneReplica(QuorumStateStore store, InMemoryRaftLog preparedLog) {
        this(1, store, preparedLog);
    }

    /** Replica {@code localId} of the voters 1, 2 and 3. */
    OneReplica(int localId, QuorumStateStore store, InMemoryRaftLog preparedLog) {
        this.localId = localId;
        this.store = store;
        copy(preparedLog);
        this.core = new RaftCore(CoreCluster.config(localId, VOTERS), log, store, new Random(42), listener, nowMs);
    }

    /** A replica of its own configuration (directory ids, initial voters), with an empty log. */
    OneReplica(io.metaquorum.raft.RaftConfig config) {
        this.localId = config.localId();
        this.store = new InMemoryQuorumStateStore();
        this.core = new RaftCore(config, log, store, new Random(42), listener, nowMs);
    }

    private void copy(InMemoryRaftLog prepared) {
        if (prepared.endOffset() > 0) {
            prepared.read(0, Integer.MAX_VALUE).forEach(log::append);
            log.flush();
        }
    }

    static InMemoryRaftLog logWithEpochs(int... epochPerRecord) {
        InMemoryRaftLog log = new InMemoryRaftLog();
        for (int epoch : epochPerRecord) {
            log.append(RecordBatches.build(log.endOffset(), epoch, 0, false,
                    List.of(ByteString.copyFromUtf8("r" + log.endOffset()))));
        }
        log.flush();
        return log;
    }

    static InMemoryQuorumStateStore storeAt(ElectionState state) {
        InMemoryQuorumStateStore store = new InMemoryQuorumStateStore();
        store.write(state);
        return store;
    }

    /** Delivers a request from {@code from}; returns everything this replica sent in response, after a driver step. */
    List<RaftMessage> request(int from, Message payload) {
        core.handle(new RaftRequest(from, localId, nextCorrelationId++, payload), nowMs);
        return step();
    }

    List<RaftMessage> respond(RaftRequest to, Message payload) {
        core.handle(new RaftResponse(to.destinationId(), localId, to.correlationId(), payload), nowMs);
        return step();
    }

    List<RaftMessage> fail(RaftRequest to, RequestFailure.Reason reason) {
        core.handle(new RequestFailure(to.destinationId(), to.correlationId(), reason), nowMs);
        return step();
    }

    List<RaftMessage> step() {
        List<RaftMessage> out = new ArrayList<>();
        core.poll(nowMs);
        out.addAll(core.takeOutbound());
        if (log.hasUnflushed()) {
            log.flush();
            core.poll(nowMs);
            out.addAll(core.takeOutbound());
        }
        return out;
    }

    List<RaftMessage> advance(long ms) {
        nowMs += ms;
        return step();
    }

    static <T extends Message> T only(List<RaftMessage> messages, Class<T> type) {
        List<T> found = all(messages, type);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + type.getSimpleName() + " in " + messages);
        }
        return found.get(0);
    }

    static <T extends Message> List<T> all(List<RaftMessage> messages, Class<T> type) {
        List<T> found = new ArrayList<>();
        for (RaftMessage message : messages) {
            Message payload = message instanceof RaftRequest r ? r.payload() : ((RaftResponse) message).payload();
            if (type.isInstance(payload)) {
                found.add(type.cast(payload));
            }
        }
        return found;
    }

    static List<RaftRequest> requestsOf(List<RaftMessage> messages, Class<? extends Message> type) {
        List<RaftRequest> found = new ArrayList<>();
        for (RaftMessage message : messages) {
            if (message instanceof RaftRequest r && type.isInstance(r.payload())) {
                found.add(r);
            }
        }
        return found;
    }

    static VoteRequest vote(int candidate, int epoch, int lastEpoch, long lastOffset, boolean preVote) {
        return RaftRpcs.voteRequest(CoreCluster.CLUSTER_ID, 1, epoch, candidate, lastEpoch, lastOffset, preVote);
    }

    /** A vote request addressed to this replica (whatever its id). */
    VoteRequest voteFrom(int candidate, int epoch, int lastEpoch, long lastOffset, boolean preVote) {
        return RaftRpcs.voteRequest(CoreCluster.CLUSTER_ID, localId, epoch, candidate, lastEpoch, lastOffset, preVote);
    }

    static FetchRequest fetch(int replica, int leaderEpoch, long offset, int lastEpoch, int maxWaitMs) {
        return FetchRpcs.fetchRequest(CoreCluster.CLUSTER_ID, replica, maxWaitMs, FetchPartitionRequest.newBuilder()
                .setPartitionIndex(TopicIds.METADATA_PARTITION).setCurrentLeaderEpoch(leaderEpoch)
                .setFetchOffset(offset).setLastFetchedEpoch(lastEpoch).build());
    }

    /** Makes replica 1 the leader: pre-vote and vote granted by replica 2. */
    void electAsLeader() {
        List<RaftMessage> out = advance(3_000);
        RaftRequest preVote = requestsOf(out, VoteRequest.class).get(0);
        int epoch = core.status().epoch();
        out = respond(preVote, RaftRpcs.voteResponse(io.metaquorum.protocol.ErrorCode.NONE, -1, epoch, true));
        RaftRequest realVote = requestsOf(out, VoteRequest.class).get(0);
        respond(realVote, RaftRpcs.voteResponse(io.metaquorum.protocol.ErrorCode.NONE, -1, epoch + 1, true));
        if (!core.status().isLeader()) {
            throw new AssertionError("not leader: " + core.status());
        }
    }
}

package io.metaquorum.raft.core;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.AppendResult;
import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import io.metaquorum.raft.storage.RecordBatches;

/**
 * A small deterministic cluster of real cores for interaction tests: FIFO delivery, a
 * manual clock that jumps to the next deadline, crashes that turn requests to the dead
 * node into UNREACHABLE failures (as a reset connection would), partitions that drop, and
 * frozen nodes (SIGSTOP: not run, nothing in or out, no connection reset).
 */
final class CoreCluster {
    static final String CLUSTER_ID = "test-cluster";

    final TreeMap<Integer, Node> nodes = new TreeMap<>();
    final List<Integer> voterIds;
    private final ArrayDeque<RaftMessage> inFlight = new ArrayDeque<>();
    private final ArrayDeque<Integer> destinations = new ArrayDeque<>();
    private final TreeSet<Integer> down = new TreeSet<>();
    private final TreeSet<Integer> isolated = new TreeSet<>();
    private final TreeSet<Integer> frozen = new TreeSet<>();
    /** Requests delivered and not yet answered, as (destination -> source:correlation id), to fail on a crash. */
    private final TreeMap<Integer, TreeMap<String, RaftRequest>> unanswered = new TreeMap<>();
    private final Random random;
    long nowMs = 1_000;
    /** Answers to {@link #clientRequest}s by correlation id, until taken. */
    private final TreeMap<Long, com.google.protobuf.Message> clientAnswers = new TreeMap<>();
    private long nextClientCorrelationId = 1L << 40;

    /** A replica with its durable state, which survives {@link #crash} and {@link #restart}. */
    final class Node {
        final int id;
        InMemoryRaftLog log = new InMemoryRaftLog();
        InMemoryQuorumStateStore store = new InMemoryQuorumStateStore();
        /** From meta.properties; ZERO for a node of the static voter set. */
        io.metaquorum.protocol.Uuid directoryId = io.metaquorum.raft.TopicIds.ZERO;
        /** What its format wrote: the initial voters, or absent (static voters). */
        java.util.Optional<io.metaquorum.raft.VoterSet> initialVoters = java.util.Optional.empty();
        /** Where it listens, as its configuration says; empty: it does not know, and never updates its entry. */
        List<io.metaquorum.raft.VoterSet.Endpoint> listeners = List.of();
        final RecordingListener listener = new RecordingListener();
        RaftCore core;

        Node(int id) {
            this.id = id;
        }

        RaftStatus status() {
            return core.status();
        }
    }

    CoreCluster(int voters, int observers, long seed) {
        this(voters, observers, seed, false);
    }

    /**
     * With {@code directoryIds}, every node is formatted with a directory id (node N:
     * {@link #directoryId}(N)) and the voters as initial controllers (kraft.version 1).
     */
    CoreCluster(int voters, int observers, long seed, boolean directoryIds) {
        this.random = new Random(seed);
        List<Integer> ids = new ArrayList<>();
        List<io.metaquorum.raft.VoterSet.Voter> initial = new ArrayList<>();
        for (int i = 1; i <= voters; i++) {
            ids.add(i);
            initial.add(new io.metaquorum.raft.VoterSet.Voter(
                    new io.metaquorum.raft.ReplicaKey(i, directoryId(i)), List.of()));
        }
        this.voterIds = List.copyOf(ids);
        for (int i = 1; i <= voters + observers; i++) {
            Node node = new Node(i);
            if (directoryIds) {
                node.directoryId = directoryId(i);
                node.initialVoters = java.util.Optional.of(io.metaquorum.raft.VoterSet.of(initial));
            }
            nodes.put(i, node);
            start(node);
        }
    }

    static io.metaquorum.protocol.Uuid directoryId(int nodeId) {
        return io.metaquorum.raft.TopicIds.uuid(0x5EED, nodeId);
    }

    /**
     * The node's disk is wiped and it is reformatted with {@code newDirectoryId} and without
     * initial controllers (KIP-853's --no-initial-controllers), then started again.
     */
    void wipeAndReformat(int id, io.metaquorum.protocol.Uuid newDirectoryId) {
        Node node = nodes.get(id);
        node.log = new InMemoryRaftLog();
        node.store = new InMemoryQuorumStateStore();
        node.directoryId = newDirectoryId;
        node.initialVoters = java.util.Optional.of(io.metaquorum.raft.VoterSet.EMPTY);
        restart(id);
    }

    static RaftConfig config(int localId, List<Integer> voters) {
        return new RaftConfig(CLUSTER_ID, localId, voters, RaftTimeouts.DEFAULTS,
                new RaftLimits(1 << 20, 256, 64, 1 << 20, 4096, 1 << 20));
    }

    private void start(Node node) {
        node.listener.reset();
        RaftConfig base = config(node.id, voterIds);
        RaftConfig config = new RaftConfig(base.clusterId(), base.localId(), base.voterIds(), base.timeouts(),
                base.limits(), node.directoryId, node.initialVoters, node.listeners);
        node.core = new RaftCore(config, node.log, node.store, new Random(random.nextLong()), node.listener, nowMs);
    }

    Node node(int id) {
        return nodes.get(id);
    }

    /** The process dies: its peers' connections reset, failing every request it had not answered. */
    void crash(int id) {
        down.add(id);
        TreeMap<String, RaftRequest> pending = unanswered.remove(id);
        if (pending != null) {
            for (RaftRequest request : pending.values()) {
                if (request.sourceId() == RaftRequest.CLIENT) {
                    continue;
                }
                inFlight.add(new RequestFailure(id, request.correlationId(), RequestFailure.Reason.UNREACHABLE));
                destinations.add(request.sourceId());
            }
        }
    }

    void restart(int id) {
        down.remove(id);
        start(nodes.get(id));
    }

    void isolate(int id) {
        isolated.add(id);
    }

    void heal() {
        isolated.clear();
    }

    /** The process stops (SIGSTOP): it runs no timer, and nothing reaches it or leaves it; no connection resets. */
    void freeze(int id) {
        frozen.add(id);
    }

    /** The process resumes (SIGCONT): its clock has jumped by the time it was frozen. */
    void thaw(int id) {
        frozen.remove(id);
    }

    /** Runs one driver iteration on a node, as the production driver does. */
    void step(Node node) {
        node.core.poll(nowMs);
        route(node.core.takeOutbound());
        if (node.log.hasUnflushed()) {
            node.log.flush();
            node.core.poll(nowMs);
            route(node.core.takeOutbound());
        }
    }

    /**
     * A tool's request (source {@link RaftRequest#CLIENT}) to node {@code id}; the cluster runs
     * until the node answers it, at most {@code maxMs} simulated ms. Returns the answer.
     */
    com.google.protobuf.Message clientRequest(int id, com.google.protobuf.Message payload, long maxMs) {
        return awaitClientAnswer(sendClientRequest(id, payload), maxMs);
    }

    /** Hands node {@code id} a tool's request now; returns its correlation id for {@link #awaitClientAnswer}. */
    long sendClientRequest(int id, com.google.protobuf.Message payload) {
        long correlationId = nextClientCorrelationId++;
        Node node = nodes.get(id);
        node.core.handle(new RaftRequest(RaftRequest.CLIENT, id, correlationId, payload), nowMs);
        step(node);
        deliverAll();
        return correlationId;
    }

    /** Runs until the answer to {@code correlationId} arrives, at most {@code maxMs} simulated ms; returns it. */
    com.google.protobuf.Message awaitClientAnswer(long correlationId, long maxMs) {
        runUntil(() -> clientAnswers.containsKey(correlationId), maxMs);
        return clientAnswers.remove(correlationId);
    }

    private void route(List<RaftMessage> messages) {
        for (RaftMessage message : messages) {
            if (message instanceof RaftResponse response && response.destinationId() == RaftRequest.CLIENT) {
                clientAnswers.put(response.correlationId(), response.payload());
                continue;
            }
            int destination = message instanceof RaftRequest r ? r.destinationId() : ((RaftResponse) message).destinationId();
            int source = message instanceof RaftRequest r ? r.sourceId() : ((RaftResponse) message).sourceId();
            if (isolated.contains(source) || isolated.contains(destination) || frozen.contains(destination)) {
                continue;
            }
            if (down.contains(destination)) {
                if (message instanceof RaftRequest r) {
                    inFlight.add(new RequestFailure(destination, r.correlationId(), RequestFailure.Reason.UNREACHABLE));
                    destinations.add(source);
                }
                continue;
            }
            if (message instanceof RaftRequest r) {
                unanswered.computeIfAbsent(destination, k -> new TreeMap<>()).put(source + ":" + r.correlationId(), r);
            } else {
                RaftResponse response = (RaftResponse) message;
                TreeMap<String, RaftRequest> pending = unanswered.get(source);
                if (pending != null) {
                    pending.remove(destination + ":" + response.correlationId());
                }
            }
            inFlight.add(message);
            destinations.add(destination);
        }
    }

    /** Delivers queued messages until none are left (bounded). */
    void deliverAll() {
        int delivered = 0;
        while (!inFlight.isEmpty()) {
            if (++delivered > 100_000) {
                throw new AssertionError("message storm: more than 100000 deliveries without quiescence");
            }
            RaftMessage message = inFlight.poll();
            Node destination = nodes.get(destinations.poll());
            if (down.contains(destination.id) || frozen.contains(destination.id)) {
                continue;
            }
            destination.core.handle(message, nowMs);
            step(destination);
        }
    }

    /** Polls every live node, delivers, and jumps the clock to the next deadline, until the condition holds. */
    void runUntil(BooleanSupplier condition, long maxMs) {
        long limit = nowMs + maxMs;
        while (!condition.getAsBoolean()) {
            if (nowMs > limit) {
                throw new AssertionError("condition not reached within " + maxMs + " simulated ms");
            }
            long next = Long.MAX_VALUE;
            for (Node node : nodes.values()) {
                if (!down.contains(node.id) && !frozen.contains(node.id)) {
                    step(node);
                    deliverAll();
                    next = Math.min(next, node.core.poll(nowMs));
                    route(node.core.takeOutbound());
                    deliverAll();
                }
            }
            if (!condition.getAsBoolean()) {
                nowMs = Math.max(nowMs + 1, Math.min(next, nowMs + 50));
            }
        }
    }

    void runFor(long ms) {
        long end = nowMs + ms;
        runUntil(() -> nowMs >= end, ms + 100);
    }

    Node leader() {
        for (Node node : nodes.values()) {
            if (!down.contains(node.id) && !frozen.contains(node.id) && node.status().isLeader()) {
                return node;
            }
        }
        return null;
    }

    Node awaitLeader() {
        runUntil(() -> leader() != null, 30_000);
        return leader();
    }

    long appendThroughLeader(String... values) {
        Node leader = awaitLeader();
        List<ByteString> records = new ArrayList<>();
        for (String value : values) {
            records.add(ByteString.copyFromUtf8(value));
        }
        AppendResult result = leader.core.append(leader.status().epoch(), records, nowMs);
        if (!result.accepted()) {
            throw new AssertionError("append refused: " + result);
        }
        return result.lastOffset();
    }

    /** Records what the state machine is told. */
    static final class RecordingListener implements RaftListener {
        static final String RESTART = "restart";
        final List<String> committed = new ArrayList<>();
        final List<OffsetAndEpoch> snapshotsLoaded = new ArrayList<>();
        /**
         * Leadership as reported, in order: "leader L epoch E", "lead E from O", "resign E";
         * kept across restarts, each restart marked "restart".
         */
        final List<String> leadership = new ArrayList<>();
        /** Whether it takes raft's control records to append them itself; what it was handed. */
        boolean takesControlRecords;
        final List<List<com.google.protobuf.ByteString>> controlRecordsTaken = new ArrayList<>();
        long nextOffset;

        void reset() {
            committed.clear();
            if (!leadership.isEmpty()) {
                leadership.add(RESTART);
            }
            nextOffset = 0;
        }

        /** The reports since the last call, which clears them. */
        List<String> takeLeadership() {
            List<String> taken = List.copyOf(leadership);
            leadership.clear();
            return taken;
        }

        @Override
        public void handleCommit(List<RecordBatch> batches) {
            for (RecordBatch batch : batches) {
                if (batch.getBaseOffset() != nextOffset) {
                    throw new AssertionError("commit gap: expected " + nextOffset + " got " + batch.getBaseOffset());
                }
                nextOffset = batch.getBaseOffset() + batch.getRecordCount();
                if (!batch.getControl()) {
                    RecordBatches.records(batch).forEach(r -> committed.add(r.toStringUtf8()));
                }
            }
        }

        @Override
        public void handleLoadSnapshot(OffsetAndEpoch snapshotId, io.metaquorum.raft.storage.SnapshotReader snapshot) {
            snapshotsLoaded.add(snapshotId);
            // The test state machine's snapshots are small: read whole.
            byte[] content = snapshot.read(0, (int) snapshot.sizeBytes());
            committed.clear();
            for (com.google.protobuf.ByteString value : io.metaquorum.raft.snapshot.SnapshotCodec.decode(content)
                    .records()) {
                committed.add(value.toStringUtf8());
            }
            nextOffset = snapshotId.offset();
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leader) {
            leadership.add("leader " + leader.leaderId() + " epoch " + leader.epoch());
        }

        @Override
        public void handleBecomeLeader(int epoch, long epochStartOffset) {
            if (nextOffset <= epochStartOffset) {
                throw new AssertionError("told to lead epoch " + epoch + " from " + epochStartOffset
                        + " before applying it (applied up to " + nextOffset + ")");
            }
            leadership.add("lead " + epoch + " from " + epochStartOffset);
        }

        @Override
        public void handleResign(int epoch) {
            leadership.add("resign " + epoch);
        }

        @Override
        public boolean handleControlRecords(int epoch, List<com.google.protobuf.ByteString> records) {
            if (takesControlRecords) {
                controlRecordsTaken.add(records);
            }
            return takesControlRecords;
        }
    }

    /** A snapshot of the test state machine: its values as records, in the format the core reads. */
    static byte[] snapshotOf(OffsetAndEpoch id, List<String> values) {
        return io.metaquorum.raft.snapshot.SnapshotCodec.encode(id, 0,
                values.stream().map(com.google.protobuf.ByteString::copyFromUtf8).toList(), 100);
    }
}

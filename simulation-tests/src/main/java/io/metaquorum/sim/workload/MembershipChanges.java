package io.metaquorum.sim.workload;

import com.google.protobuf.Message;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The operator of {@link FaultKind#MEMBERSHIP}: an admin client that sends AddVoter and
 * RemoveVoter (KIP-853) to the leader, one change at a time, as the transport's server
 * endpoint delivers them (source {@link RaftRequest#CLIENT}, after a client round trip's
 * delay). It
 * <ul>
 *   <li>replaces a wiped voter: once the node is back on its new disk (an observer), at a
 *       random later moment, removes the voter of the old directory id and then adds the new
 *       one;</li>
 *   <li>now and then removes a healthy voter and adds it back later (it keeps its disk).</li>
 * </ul>
 * A refusal (REQUEST_TIMED_OUT, NOT_LEADER_OR_FOLLOWER, a change still pending, a new voter
 * not caught up yet) or a lost answer is retried from scratch later: the next decision reads
 * the voter set in force on the leader again, as an operator re-reads DescribeQuorum. No
 * change leaves a voter set without a majority of intact disks ({@link IntactVoters}) or
 * empty; the voters stay at least three unless a removal is drawn, rarely, below that.
 *
 * <p>The leader of two voters may be asked to remove itself: the new set is the other voter
 * alone, whose log may not hold the VotersRecord yet. If the leader stops before that voter
 * fetches it, the other voter (a voter of both in its log) cannot win against the leader's
 * longer log; the leader, once back, campaigns under the new set to finish the change
 * ({@code VoterSetHistory.mayCampaign}). Before that rule the quorum stayed stuck for good
 * (seed 7000005 of the membership sweep).
 */
final class MembershipChanges {
    /** How often the operator looks at the quorum. */
    private static final long TICK_MS = 500;
    /** The AddVoter {@code timeout_ms}: how long the leader may wait for the commit. */
    private static final int ADD_TIMEOUT_MS = 5_000;
    /** An answer not back by then is given up (the node stopped, the request was lost). */
    private static final long ANSWER_WAIT_MS = 10_000;

    private final EventScheduler scheduler;
    private final SimCluster cluster;
    private final IntactVoters intact;
    private final Random random;
    private final FaultListener listener;
    /** Mean time between removals of a healthy voter. */
    private final long healthyRemovalMeanMs;
    /** Longest wait before a replaced disk, back, or a removed voter is (re-)added. */
    private final long reactionMaxMs;
    /** Per node: the earliest time the operator acts on it (a drawn reaction delay); 0 when not set. */
    private final long[] actAfterMs;
    private long nextCorrelationId = 1L << 50;
    /** The request sent and not answered yet, or null. */
    private Request inFlight;
    private boolean stopped = true;
    private long changes;

    MembershipChanges(EventScheduler scheduler, SimCluster cluster, IntactVoters intact, Random random,
                      FaultListener listener) {
        this.scheduler = scheduler;
        this.cluster = cluster;
        this.intact = intact;
        this.random = random;
        this.listener = listener;
        this.healthyRemovalMeanMs = FaultProfile.between(random, 5_000, 60_000);
        this.reactionMaxMs = FaultProfile.between(random, 0, 10_000);
        this.actAfterMs = new long[cluster.maxNodeId() + 1];
    }

    /** A request of the operator: on which node it acts, and what it asks, for the timeline. */
    private record Request(long correlationId, int nodeId, String what, long sentAtMs) {
    }

    void start() {
        stopped = false;
        for (SimNode node : cluster.nodes()) {
            node.setClientAnswers(this::onAnswer);
        }
        scheduler.scheduleAfter(TICK_MS, EventKind.FAULT, -1, this::tick);
    }

    /** No new change from now on (the liveness phase); an answer still on its way is ignored. */
    void stop() {
        stopped = true;
    }

    /** The changes that were answered NONE: each committed. */
    long changeCount() {
        return changes;
    }

    private void tick() {
        if (stopped) {
            return;
        }
        scheduler.scheduleAfter(TICK_MS, EventKind.FAULT, -1, this::tick);
        long now = scheduler.nowMs();
        if (inFlight != null && now - inFlight.sentAtMs() < ANSWER_WAIT_MS) {
            return;
        }
        inFlight = null;
        Optional<SimNode> leader = cluster.leader();
        if (leader.isEmpty()) {
            return;
        }
        VoterSet voters = leader.get().voterSet();
        decide(leader.get(), voters, now);
    }

    /** One step: replace a wiped voter, add back a removed one, or remove a healthy one. */
    private void decide(SimNode leader, VoterSet voters, long now) {
        for (SimNode node : cluster.voters()) {
            Optional<VoterSet.Voter> listed = voters.voter(node.nodeId());
            if (listed.isPresent() && !node.listedWithOwnDisk(voters) && node.isRunning()) {
                // Its disk was replaced: the old replica goes first.
                if (ready(node, now)) {
                    VoterSet without = without(voters, node.nodeId());
                    if (intact.keepsMajority(without)) {
                        remove(leader, listed.get().key(), "replaced disk");
                    }
                }
                return;
            }
            if (listed.isEmpty() && node.isRunning() && ready(node, now)) {
                add(leader, node);
                return;
            }
        }
        if (voters.size() >= 2 && random.nextDouble() < (double) TICK_MS / healthyRemovalMeanMs
                && (voters.size() > 3 || random.nextInt(3) == 0)) {
            List<VoterSet.Voter> healthy = new ArrayList<>();
            for (VoterSet.Voter voter : voters.voters()) {
                int id = voter.key().id();
                if (id >= 1 && id <= cluster.maxNodeId() && cluster.node(id).listedWithOwnDisk(voters)
                        && intact.keepsMajority(without(voters, id))) {
                    healthy.add(voter);
                }
            }
            if (!healthy.isEmpty()) {
                VoterSet.Voter victim = healthy.get(random.nextInt(healthy.size()));
                remove(leader, victim.key(), "healthy voter");
            }
        }
    }

    /** Whether the operator's reaction delay for {@code node} has passed (drawn the first time it is asked). */
    private boolean ready(SimNode node, long now) {
        int id = node.nodeId();
        if (actAfterMs[id] == 0) {
            actAfterMs[id] = now + 1 + (long) (random.nextDouble() * reactionMaxMs);
        }
        return now >= actAfterMs[id];
    }

    private void remove(SimNode leader, ReplicaKey voter, String why) {
        send(leader, RemoveVoterRequest.newBuilder().setClusterId("").setVoterId(voter.id())
                .setVoterDirectoryId(voter.directoryId()).build(), "remove voter " + voter + " (" + why + ")");
    }

    private void add(SimNode leader, SimNode node) {
        ReplicaKey voter = new ReplicaKey(node.nodeId(), node.disk().format().directoryId());
        send(leader, AddVoterRequest.newBuilder().setClusterId("").setTimeoutMs(ADD_TIMEOUT_MS)
                .setVoterId(voter.id()).setVoterDirectoryId(voter.directoryId()).build(), "add voter " + voter);
    }

    private void send(SimNode leader, Message payload, String what) {
        long correlationId = nextCorrelationId++;
        int nodeId = payload instanceof AddVoterRequest add ? add.getVoterId()
                : ((RemoveVoterRequest) payload).getVoterId();
        inFlight = new Request(correlationId, nodeId, what, scheduler.nowMs());
        RaftRequest request = new RaftRequest(RaftRequest.CLIENT, leader.nodeId(), correlationId, payload);
        scheduler.scheduleAfter(1 + random.nextInt(5), EventKind.FAULT, leader.nodeId(),
                () -> leader.clientRequest(request));
    }

    private void onAnswer(RaftResponse response) {
        Request request = inFlight;
        if (request == null || response.correlationId() != request.correlationId()) {
            return;
        }
        inFlight = null;
        ErrorCode code = response.payload() instanceof AddVoterResponse add ? add.getErrorCode()
                : ((RemoveVoterResponse) response.payload()).getErrorCode();
        if (code != ErrorCode.NONE) {
            return; // retried, from the voter set in force then, at a later tick
        }
        changes++;
        listener.onFault(request.what(), request.nodeId(), request.sentAtMs(), scheduler.nowMs());
        // The next step on that node (adding it back, or removing it again) waits a new reaction delay.
        actAfterMs[request.nodeId()] = 0;
    }

    private static VoterSet without(VoterSet voters, int id) {
        List<VoterSet.Voter> rest = new ArrayList<>(voters.voters());
        rest.removeIf(v -> v.key().id() == id);
        return VoterSet.of(rest);
    }
}

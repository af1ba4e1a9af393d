package io.metaquorum.sim;

import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.invariant.StepDownCheck;
import io.metaquorum.sim.workload.FaultKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The liveness variants with a silent leader: once the cluster has converged, the
 * leader is paused (SIGSTOP) or black-holed, and stays so while the others must elect a new
 * leader within {@link #boundMs}: fetch timeout + 2 x election timeout after the leader went
 * silent (the followers learn of it only by the fetch timeout; one lost pre-vote round may
 * follow). Checked as {@value #CHECK}. Then the old leader resumes (or its links return): it
 * must learn the new epoch within {@link #STEP_DOWN_BOUND_MS} (target, checked as
 * {@value #STEP_DOWN_CHECK}), and the cluster must converge again.
 *
 * <p>"Replaced" means: a running node other than the silent one, not paused itself, leads
 * an epoch above the silent leader's.
 */
final class SilentLeaderStage {
    static final String CHECK = "silent-leader-replaced";
    static final String STEP_DOWN_CHECK = StepDownCheck.NAME;
    /** A silent leader, back, learns of its successor within this long. */
    static final long STEP_DOWN_BOUND_MS = 1_000;

    private final World world;
    private final EventLoop loop;

    SilentLeaderStage(World world, EventLoop loop) {
        this.world = world;
        this.loop = loop;
    }

    /** The bound for a new leader after the old one went silent, with the simulated timeouts. */
    static long boundMs(RaftTimeouts timeouts) {
        return timeouts.fetchTimeoutMs() + 2L * timeouts.electionTimeoutMs();
    }

    /**
     * The silent fault the liveness phase ends with, or null when the seed has none or the
     * voters other than the leader are no majority (one or two voters).
     */
    static FaultKind choose(World world) {
        if (votersBeside(world, Set.of()) < majorityInForce(world)) {
            return null;
        }
        boolean pause = world.faultProfile().has(FaultKind.PAUSE);
        boolean blackHole = world.faultProfile().has(FaultKind.BLACK_HOLE);
        if (pause && blackHole) {
            return world.livenessRandom().nextBoolean() ? FaultKind.PAUSE : FaultKind.BLACK_HOLE;
        }
        return pause ? FaultKind.PAUSE : blackHole ? FaultKind.BLACK_HOLE : null;
    }

    /**
     * Silences the converged cluster's leader by {@code kind} (with five or more voters, half
     * the time a follower voter with it, as a frozen VM host might take two), requires a new
     * leader within the bound, then ends the fault and requires convergence within
     * {@code convergeBoundMs}.
     */
    void run(FaultKind kind, Set<Integer> expectedUp, long convergeBoundMs) {
        SimNode leader = world.cluster().leader().orElseThrow();
        SimNode companion = chooseCompanion(leader);
        int epoch = leader.status().epoch();
        long silencedAt = world.scheduler().nowMs();
        String how = kind.cliName() + (companion == null ? "" : ", with voter " + companion.nodeId());
        silence(leader, kind);
        if (companion != null) {
            silence(companion, kind);
        }
        awaitReplacement(leader, epoch, silencedAt, boundMs(world.timeouts()), how);
        end(leader, kind);
        long resumedAt = world.scheduler().nowMs();
        awaitStepDown(leader, epoch, resumedAt, how);
        if (companion != null) {
            end(companion, kind);
        }
        if (world.timeline() != null) {
            world.timeline().onFault(kind.cliName() + " (liveness: silent leader)", leader.nodeId(), silencedAt,
                    resumedAt);
            if (companion != null) {
                world.timeline().onFault(kind.cliName() + " (liveness: with the leader)", companion.nodeId(),
                        silencedAt, world.scheduler().nowMs());
            }
        }
        world.probeSince(resumedAt);
        loop.awaitConvergence(expectedUp, resumedAt, convergeBoundMs,
                "after the " + how + " of old leader " + leader.nodeId() + " ended");
    }

    /** A follower voter to silence with the leader, when the rest are still a majority without both; else null. */
    private SimNode chooseCompanion(SimNode leader) {
        List<SimNode> voters = world.cluster().voters();
        if (voters.size() - 2 < world.cluster().majority() || !world.livenessRandom().nextBoolean()) {
            return null;
        }
        List<SimNode> followers = new ArrayList<>();
        for (SimNode voter : voters) {
            // At kraft.version 1 the voters in force may be fewer: the two silenced must leave a majority of them.
            if (voter != leader && votersBeside(world, Set.of(voter.nodeId())) >= majorityInForce(world)) {
                followers.add(voter);
            }
        }
        if (followers.isEmpty()) {
            return null;
        }
        return followers.get(world.livenessRandom().nextInt(followers.size()));
    }

    /**
     * The voters of the leader's voter set in force, other than the leader and {@code also},
     * that can vote: listed with their own disk (kraft.version 1: a replaced disk is an
     * observer), or by id alone in the static voter set. Without a leader, the static voters.
     */
    private static int votersBeside(World world, Set<Integer> also) {
        Optional<SimNode> leader = world.cluster().leader();
        VoterSet voters = leader.map(SimNode::voterSet).orElse(null);
        if (voters == null) {
            return world.cluster().voters().size() - 1 - also.size();
        }
        int count = 0;
        for (VoterSet.Voter voter : voters.voters()) {
            int id = voter.key().id();
            if (id != leader.get().nodeId() && !also.contains(id) && id >= 1 && id <= world.cluster().maxNodeId()
                    && (!voter.key().hasDirectoryId() || world.cluster().node(id).listedWithOwnDisk(voters))) {
                count++;
            }
        }
        return count;
    }

    private static int majorityInForce(World world) {
        VoterSet voters = world.cluster().leader().map(SimNode::voterSet).orElse(null);
        return voters == null ? world.cluster().majority() : voters.majority();
    }

    void silence(SimNode node, FaultKind kind) {
        if (kind == FaultKind.PAUSE) {
            node.pause();
        } else {
            world.network().links().blackHole(node.nodeId());
        }
    }

    void end(SimNode node, FaultKind kind) {
        if (kind == FaultKind.PAUSE) {
            node.resume();
        } else {
            world.network().links().restore(node.nodeId());
        }
    }

    /**
     * Steps until a node other than {@code silent} leads an epoch above {@code silentEpoch}
     * ({@value #CHECK}); fails once {@code boundMs} have passed since {@code sinceMs}.
     */
    SimNode awaitReplacement(SimNode silent, int silentEpoch, long sinceMs, long boundMs, String how) {
        long startEvents = world.scheduler().executedCount();
        while (true) {
            Optional<SimNode> successor = successor(silent, silentEpoch);
            if (successor.isPresent()) {
                return successor.get();
            }
            long elapsed = world.scheduler().nowMs() - sinceMs;
            long events = world.scheduler().executedCount() - startEvents;
            if (elapsed > boundMs || events > EventLoop.WAIT_EVENTS_MAX || !loop.step()) {
                throw new CheckFailure(CHECK, "no new leader " + elapsed + " ms (" + events + " events) after leader "
                        + silent.nodeId() + " of epoch " + silentEpoch + " went silent (" + how + "); bound "
                        + boundMs + " ms; " + roles());
            }
        }
    }

    /**
     * Steps until the silent node, back, is in an epoch above {@code silentEpoch} (it stepped
     * down); fails as {@value #STEP_DOWN_CHECK} after {@link #STEP_DOWN_BOUND_MS}.
     */
    void awaitStepDown(SimNode silent, int silentEpoch, long sinceMs, String how) {
        StepDownCheck check = new StepDownCheck(silent.nodeId(), silentEpoch, sinceMs, STEP_DOWN_BOUND_MS, how);
        while (!check.steppedDown(silent.isRunning(), epochIfRunning(silent), world.scheduler().nowMs(), this::roles)) {
            if (!loop.step()) {
                throw check.failure(silent.status().epoch(), world.scheduler().nowMs(), this::roles);
            }
        }
    }

    private static int epochIfRunning(SimNode node) {
        return node.isRunning() ? node.status().epoch() : -1;
    }

    private Optional<SimNode> successor(SimNode silent, int silentEpoch) {
        for (SimNode node : world.cluster().running()) {
            if (node != silent && !node.isPaused() && !world.network().links().isBlackHoled(node.nodeId())) {
                RaftStatus status = node.status();
                if (status.isLeader() && status.epoch() > silentEpoch) {
                    return Optional.of(node);
                }
            }
        }
        return Optional.empty();
    }

    private String roles() {
        StringBuilder text = new StringBuilder("nodes:");
        for (SimNode node : world.cluster().nodes()) {
            text.append(' ').append(node.nodeId()).append('=');
            if (!node.isRunning()) {
                text.append("down");
                continue;
            }
            RaftStatus status = node.status();
            text.append(status.role()).append("/e").append(status.epoch()).append("/l").append(status.leaderId())
                    .append("/end").append(status.logEndOffset());
            if (node.isPaused()) {
                text.append("(paused)");
            }
        }
        return text.toString();
    }
}

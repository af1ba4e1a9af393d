package io.metaquorum.sim.workload;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.sim.cluster.NodeLifecycleListener;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.cluster.StopReason;
import io.metaquorum.sim.invariant.CommittedPrefix;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Injects the seed's discrete faults ({@link FaultProfile}) and brings stopped nodes back:
 * crashes and graceful restarts (the leader is targeted with the drawn probability), leader
 * handoffs, disk wipes, clock drift and jumps, partitions (through {@link PartitionPlanner}),
 * pauses and black holes (through {@link SilentFaults}), bad certificates (through
 * {@link BadCertificates}), observers joining late. {@link #heal} ends the safety phase: no new faults, links healed,
 * the network and disks reliable, every stopped node restarted except those held down.
 *
 * <p>At kraft.version 1 (disks with directory ids) a disk may be wiped at any moment, a
 * voter's too, as long as every voter set keeps a majority of intact disks
 * ({@link IntactVoters}); the wiped node restarts as any stopped node does, formatted with a
 * new directory id, so it is an observer until the operator replaces its old self in the
 * voter set ({@link MembershipChanges}). At kraft.version 0 a wiped voter rejoins only when
 * {@link WipeRecovery} allows it, and a voter is wiped only if it allows that too (and no
 * process is paused, see {@link #anyPaused}): a static voter set cannot survive every wipe,
 * and the checkers must report core bugs, not the limits of the fault model.
 */
public final class FaultInjector implements NodeLifecycleListener {
    private static final long WIPE_CHECK_INTERVAL_MS = 250;
    private static final long JOIN_WINDOW_MS = 30_000;
    private static final long QUICK_RESTART_MS_MAX = 200;
    private static final long OPERATOR_RESIGN_INTERVAL_MS = 5_000;

    private final EventScheduler scheduler;
    private final SimNetwork network;
    private final Random random;
    private final Random silentRandom;
    private final Random certificateRandom;
    private final FaultProfile profile;
    private final FaultListener listener;
    private final Set<Integer> heldDown = new TreeSet<>();
    private SimCluster cluster;
    private PartitionPlanner partitions;
    private SilentFaults silent;
    private BadCertificates certificates;
    private boolean healed;
    private WipeRecovery wipes;
    private IntactVoters intact;
    private MembershipChanges membership;
    private final Random membershipRandom;
    private long lastOperatorResignMs = Long.MIN_VALUE / 2;
    private long[] stoppedAtMs;
    /** Discrete faults injected by this class itself: crashes, shutdowns, resigns, wipes, clock jumps, late joins. */
    private long injected;
    private StopReason[] stopReasons;

    /**
     * @param silentRandom      the stream of the pauses and black holes, apart so they shift no other draw
     * @param certificateRandom the stream of the bad certificates, apart for the same reason
     * @param membershipRandom  the stream of the voter changes, apart for the same reason; null
     *                          when the run is at kraft.version 0 (no voter changes)
     */
    public FaultInjector(EventScheduler scheduler, SimNetwork network, Random random, Random silentRandom,
                         Random certificateRandom, Random membershipRandom, FaultProfile profile,
                         FaultListener listener) {
        this.membershipRandom = membershipRandom;
        this.scheduler = scheduler;
        this.network = network;
        this.random = random;
        this.silentRandom = silentRandom;
        this.certificateRandom = certificateRandom;
        this.profile = profile;
        this.listener = listener;
    }

    /** Completes the wiring once the nodes exist (they need this object as their lifecycle listener). */
    public void attach(SimCluster simCluster, CommittedPrefix committedPrefix) {
        this.cluster = simCluster;
        this.stoppedAtMs = new long[simCluster.maxNodeId() + 1];
        this.stopReasons = new StopReason[simCluster.maxNodeId() + 1];
        this.partitions = new PartitionPlanner(scheduler, network.links(), simCluster, random, profile, listener);
        this.silent = new SilentFaults(scheduler, network.links(), simCluster, silentRandom, profile.schedule(),
                listener);
        this.certificates = new BadCertificates(scheduler, network, simCluster, certificateRandom,
                profile.schedule(), listener);
        this.wipes = new WipeRecovery(simCluster, committedPrefix);
        this.intact = new IntactVoters(simCluster);
        this.membership = membershipRandom == null ? null
                : new MembershipChanges(scheduler, simCluster, intact, membershipRandom, listener);
    }

    /** Starts the nodes (observers possibly later) and the fault processes. */
    public void start() {
        for (SimNode node : cluster.nodes()) {
            if (!node.isVoter() && profile.has(FaultKind.JOIN) && random.nextInt(4) != 0) {
                long at = (long) (random.nextDouble() * JOIN_WINDOW_MS);
                injected++;
                scheduler.scheduleAfter(at, EventKind.FAULT, node.nodeId(), () -> startIfAllowed(node));
            } else {
                node.start();
            }
        }
        FaultSchedule s = profile.schedule();
        every(s.crashMeanIntervalMs(), () -> pickTarget().ifPresent(node -> {
            injected++;
            node.crash();
        }));
        every(s.shutdownMeanIntervalMs(), () -> pickTarget().ifPresent(node -> {
            injected++;
            node.beginShutdown();
        }));
        every(s.resignMeanIntervalMs(), this::resignLeader);
        every(s.wipeMeanIntervalMs(), this::wipeOne);
        every(s.clockJumpMeanIntervalMs(), this::jumpOneClock);
        if (profile.has(FaultKind.PARTITION) || profile.has(FaultKind.ONE_WAY)) {
            partitions.start();
        }
        silent.start();
        certificates.start();
        if (membership != null && profile.has(FaultKind.MEMBERSHIP) && intact.applies()) {
            membership.start();
        }
    }

    /**
     * Ends the safety phase: stops injecting, heals the network and the disks, and restarts
     * every stopped node except {@code keepDown}.
     */
    public void heal(Set<Integer> keepDown) {
        healed = true;
        partitions.stop();
        silent.stop();
        certificates.stop();
        if (membership != null) {
            membership.stop();
        }
        network.setProfile(network.profile().healed());
        heldDown.clear();
        heldDown.addAll(keepDown);
        for (SimNode node : cluster.nodes()) {
            node.disk().setProfile(node.disk().profile().healed());
            startIfAllowed(node);
        }
    }

    /**
     * Wipes {@code node}'s disk now (scripted scenarios), recording what a wiped voter's
     * return must wait for; the script is responsible for wiping only a minority.
     */
    public void wipe(SimNode node) {
        if (node.isVoter() && !intact.applies()) {
            wipes.beforeWipe(node);
        }
        node.wipe();
    }

    /** Keeps {@code nodeId} down: it is not restarted until {@link #release}d (scripted scenarios). */
    public void holdDown(int nodeId) {
        heldDown.add(nodeId);
    }

    /** Lets a held node start again, at once. */
    public void release(int nodeId) {
        heldDown.remove(nodeId);
        startIfAllowed(cluster.node(nodeId));
    }

    /** Lets the nodes held down by {@link #heal} start too. */
    public void releaseHeld() {
        heldDown.clear();
        for (SimNode node : cluster.nodes()) {
            startIfAllowed(node);
        }
    }

    /**
     * How many discrete faults fired so far: crashes, graceful shutdowns, leader handoffs,
     * wipes, clock jumps, late joins, partitions (each cut), silent faults (each pause or
     * black hole) and bad certificates. Faults per message or per sync are counted by the
     * network and the disks.
     */
    public long faultsInjected() {
        return injected + partitions.cutCount() + silent.injectedCount() + certificates.injectedCount()
                + voterChanges();
    }

    /** The voter changes the operator made (each AddVoter or RemoveVoter that committed), of {@link #faultsInjected}. */
    public long voterChanges() {
        return membership == null ? 0 : membership.changeCount();
    }

    /** The bound on disk loss at kraft.version 1, which the liveness phase respects too. */
    public IntactVoters intactVoters() {
        return intact;
    }

    /** How many certificates went bad ({@link FaultKind#BAD_CERTIFICATE}), of {@link #faultsInjected}. */
    public long badCertificates() {
        return certificates.injectedCount();
    }

    /** The voter waiting to rejoin after a wipe, if any. */
    public SimNode wipedVoter() {
        return wipes.waiting();
    }

    @Override
    public void onStarted(SimNode node) {
        StopReason reason = stopReasons[node.nodeId()];
        if (reason != null) {
            listener.onFault(reason.name().toLowerCase().replace('_', '-'), node.nodeId(),
                    stoppedAtMs[node.nodeId()], scheduler.nowMs());
            stopReasons[node.nodeId()] = null;
        }
    }

    @Override
    public void onStopped(SimNode node, StopReason reason) {
        stoppedAtMs[node.nodeId()] = scheduler.nowMs();
        stopReasons[node.nodeId()] = reason;
        if (reason == StopReason.WIPE && node.isVoter() && !intact.applies()) {
            wipes.onWiped(node);
            scheduler.scheduleAfter(WIPE_CHECK_INTERVAL_MS, EventKind.FAULT, node.nodeId(), this::maybeRejoinWiped);
            return;
        }
        // Half the restarts are quick (a supervisor restarting the process), half take a while.
        long downtimeMax = random.nextBoolean() ? QUICK_RESTART_MS_MAX : profile.schedule().downtimeMaxMs();
        long downtime = 1 + (long) (random.nextDouble() * downtimeMax);
        scheduler.scheduleAfter(downtime, EventKind.FAULT, node.nodeId(), () -> startIfAllowed(node));
    }

    private void startIfAllowed(SimNode node) {
        if (!node.isRunning() && !heldDown.contains(node.nodeId()) && node != wipes.waiting()) {
            node.start();
        }
    }

    private void every(long meanIntervalMs, Runnable fault) {
        if (meanIntervalMs == FaultSchedule.NEVER) {
            return;
        }
        scheduler.scheduleAfter(exponential(random, meanIntervalMs), EventKind.FAULT, -1, () -> {
            if (!healed) {
                fault.run();
                every(meanIntervalMs, fault);
            }
        });
    }

    /**
     * The node a crash or shutdown hits: the leader (with the drawn probability), or a voter
     * in the middle of an election (it voted and knows no leader yet), or any running node.
     */
    private Optional<SimNode> pickTarget() {
        if (random.nextDouble() < profile.schedule().leaderTargetProbability()) {
            Optional<SimNode> leader = cluster.leader();
            if (leader.isPresent()) {
                return leader;
            }
        }
        List<SimNode> running = cluster.running();
        if (running.isEmpty()) {
            return Optional.empty();
        }
        if (random.nextInt(4) == 0) {
            List<SimNode> voting = new ArrayList<>();
            for (SimNode node : running) {
                RaftStatus status = node.status();
                if (node.isVoter() && status.votedId() >= 0 && status.leaderId() < 0) {
                    voting.add(node);
                }
            }
            if (!voting.isEmpty()) {
                return Optional.of(voting.get(random.nextInt(voting.size())));
            }
        }
        return Optional.of(running.get(random.nextInt(running.size())));
    }

    private void resignLeader() {
        cluster.leader().ifPresent(leader -> {
            listener.onFault("resign", leader.nodeId(), scheduler.nowMs(), scheduler.nowMs());
            injected++;
            leader.resign();
        });
    }

    private void wipeOne() {
        List<SimNode> nodes = cluster.nodes();
        SimNode target = nodes.get(random.nextInt(nodes.size()));
        if (intact.applies()) {
            if (!intact.mayWipe(target)) {
                return;
            }
        } else if (target.isVoter()) {
            if (anyPaused() || !wipes.mayWipe(target)) {
                return;
            }
            wipes.beforeWipe(target);
        }
        injected++;
        target.wipe();
    }

    /**
     * Whether a process is paused. A voter is not wiped then: the paused process may hold the
     * voter's fetch unread in its buffers, and a leader counting that acknowledgment after the
     * wipe counts data the new disk does not have (KIP-853's directory ids exist for this; a
     * static voter set cannot tell the disks apart).
     */
    private boolean anyPaused() {
        for (SimNode node : cluster.nodes()) {
            if (node.isPaused()) {
                return true;
            }
        }
        return false;
    }

    private void jumpOneClock() {
        List<SimNode> nodes = cluster.nodes();
        SimNode target = nodes.get(random.nextInt(nodes.size()));
        long jump = 1 + (long) (random.nextDouble() * profile.schedule().clockJumpMaxMs());
        injected++;
        target.clock().jumpForward(jump, scheduler.nowMs());
        listener.onFault("clock +" + jump + "ms", target.nodeId(), scheduler.nowMs(), scheduler.nowMs());
        target.nudge();
    }

    private void maybeRejoinWiped() {
        SimNode waiting = wipes.waiting();
        if (waiting == null) {
            return;
        }
        SimNode[] blocker = new SimNode[1];
        if (heldDown.contains(waiting.nodeId()) || !wipes.mayRejoin(blocker)) {
            if (blocker[0] != null) {
                askToResign(blocker[0]);
            }
            scheduler.scheduleAfter(WIPE_CHECK_INTERVAL_MS, EventKind.FAULT, waiting.nodeId(), this::maybeRejoinWiped);
            return;
        }
        wipes.onRejoined();
        waiting.start();
    }

    private void askToResign(SimNode leader) {
        long now = scheduler.nowMs();
        if (now - lastOperatorResignMs >= OPERATOR_RESIGN_INTERVAL_MS) {
            lastOperatorResignMs = now;
            listener.onFault("resign (before re-adding a wiped disk)", leader.nodeId(), now, now);
            leader.resign();
        }
    }

    public static long exponential(Random random, long meanMs) {
        return (long) (-meanMs * Math.log(1 - random.nextDouble()));
    }
}

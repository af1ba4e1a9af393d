package io.metaquorum.sim.workload;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.sim.cluster.NodeLifecycleListener;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.cluster.StopReason;
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
 * <p>Every run is at kraft.version 1 (disks with directory ids): a disk may be wiped at any
 * moment, a voter's too, as long as every voter set keeps a majority of intact disks
 * ({@link IntactVoters}); the wiped node restarts as any stopped node does, formatted with a
 * new directory id, so it is an observer until the operator replaces its old self in the
 * voter set ({@link MembershipChanges}).
 */
public final class FaultInjector implements NodeLifecycleListener {
    private static final long JOIN_WINDOW_MS = 30_000;
    private static final long QUICK_RESTART_MS_MAX = 200;

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
    private IntactVoters intact;
    private MembershipChanges membership;
    private final Random membershipRandom;
    private long[] stoppedAtMs;
    /** Discrete faults injected by this class itself: crashes, shutdowns, resigns, wipes, clock jumps, late joins. */
    private long injected;
    private StopReason[] stopReasons;

    /**
     * @param silentRandom      the stream of the pauses and black holes, apart so they shift no other draw
     * @param certificateRandom the stream of the bad certificates, apart for the same reason
     * @param membershipRandom  the stream of the voter changes, apart for the same reason
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
    public void attach(SimCluster simCluster) {
        this.cluster = simCluster;
        this.stoppedAtMs = new long[simCluster.maxNodeId() + 1];
        this.stopReasons = new StopReason[simCluster.maxNodeId() + 1];
        this.partitions = new PartitionPlanner(scheduler, network.links(), simCluster, random, profile, listener);
        this.silent = new SilentFaults(scheduler, network.links(), simCluster, silentRandom, profile.schedule(),
                listener);
        this.certificates = new BadCertificates(scheduler, network, simCluster, certificateRandom,
                profile.schedule(), listener);
        this.intact = new IntactVoters(simCluster);
        this.membership = new MembershipChanges(scheduler, simCluster, intact, membershipRandom, listener);
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
        if (profile.has(FaultKind.MEMBERSHIP)) {
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
        membership.stop();
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
        return membership.changeCount();
    }

    /** The bound on disk loss at kraft.version 1, which the liveness phase respects too. */
    public IntactVoters intactVoters() {
        return intact;
    }

    /** How many certificates went bad ({@link FaultKind#BAD_CERTIFICATE}), of {@link #faultsInjected}. */
    public long badCertificates() {
        return certificates.injectedCount();
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
        // Half the restarts are quick (a supervisor restarting the process), half take a while.
        long downtimeMax = random.nextBoolean() ? QUICK_RESTART_MS_MAX : profile.schedule().downtimeMaxMs();
        long downtime = 1 + (long) (random.nextDouble() * downtimeMax);
        scheduler.scheduleAfter(downtime, EventKind.FAULT, node.nodeId(), () -> startIfAllowed(node));
    }

    private void startIfAllowed(SimNode node) {
        if (!node.isRunning() && !heldDown.contains(node.nodeId())) {
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
        if (!intact.mayWipe(target)) {
            return;
        }
        injected++;
        target.wipe();
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

    public static long exponential(Random random, long meanMs) {
        return (long) (-meanMs * Math.log(1 - random.nextDouble()));
    }
}

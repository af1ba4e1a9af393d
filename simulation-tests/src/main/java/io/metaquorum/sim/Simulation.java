package io.metaquorum.sim;

import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.workload.IntactVoters;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.workload.FaultKind;
import io.metaquorum.sim.machine.StateMachineModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One deterministic simulation run: the production raft core on every node, wired to the
 * simulated clock, network and disks, driven by one event queue, with every choice drawn
 * from the seed.
 *
 * <p>Phases: a <em>safety</em> phase of {@code safetyEvents} events with the seed's faults
 * and client load; then a <em>liveness</em> phase that heals the network and the disks,
 * restarts all stopped nodes but a random minority of voters, and requires convergence
 * (one leader, an append accepted since healing acknowledged, every running node caught
 * up) within {@link #LIVENESS_BOUND_MS} of simulated time; then the held voters (and a
 * wiped voter, once safe) restart and everything must converge again. A seed with silent
 * faults ({@code pause}, {@code black-hole}) then silences the leader the same way and
 * requires a new leader within fetch timeout + 2 x election timeout, and convergence once
 * the old leader is back ({@link SilentLeaderStage}). The invariants run after every event
 * throughout ({@link EventLoop}).
 */
public final class Simulation {
    public static final long LIVENESS_BOUND_MS = 60_000;
    /** The phase of a run whose voters lost their majority of intact disks: liveness not judged. */
    public static final String BEYOND_DISK_LOSS_BOUND = "beyond-disk-loss-bound";

    private final SimulationOptions options;
    private final World world;
    private final EventLoop loop;
    private String phase = "safety";

    private Simulation(SimulationOptions options, StateMachineModel model, EventObserver observer) {
        this.options = options;
        this.world = WorldBuilder.build(options, model);
        this.loop = new EventLoop(world, observer);
    }

    public static SimulationResult run(SimulationOptions options) {
        return run(options, WorldBuilder.defaultModel(), EventObserver.NONE);
    }

    /** Runs with any replicated state machine (the harness knows it only through the model), observed. */
    public static SimulationResult run(SimulationOptions options, StateMachineModel model, EventObserver observer) {
        return new Simulation(options, model, observer).execute();
    }

    private SimulationResult execute() {
        try {
            world.startFaults();
            world.startLoad();
            loop.observeAll();
            while (world.scheduler().executedCount() < options.safetyEvents() && loop.step()) {
                // Safety phase: faults and load until the event budget is spent.
            }
            if (!world.faults().intactVoters().latestSetHasIntactMajority()) {
                return beyondDiskLossBound();
            }
            phase = "liveness";
            Set<Integer> keepDown = chooseKeptDown();
            long healedAt = world.scheduler().nowMs();
            if (world.timeline() != null) {
                world.timeline().markHealed(healedAt);
            }
            world.heal(keepDown);
            world.probeSince(healedAt);
            loop.awaitConvergence(expectedUp(keepDown), healedAt, LIVENESS_BOUND_MS,
                    "with voters " + keepDown + " held down");
            world.faults().releaseHeld();
            long releasedAt = world.scheduler().nowMs();
            world.probeSince(releasedAt);
            loop.awaitConvergence(expectedUp(Set.of()), releasedAt, LIVENESS_BOUND_MS, "with every node up");
            FaultKind silent = SilentLeaderStage.choose(world);
            if (silent != null) {
                phase = "silent-leader";
                new SilentLeaderStage(world, loop).run(silent, expectedUp(Set.of()), LIVENESS_BOUND_MS);
            }
            world.checker().finish();
            if (world.system() != null) {
                world.system().finish();
            }
            return result(null, 0);
        } catch (CheckFailure failure) {
            return result(failure, world.scheduler().executedCount());
        } catch (RuntimeException e) {
            // A bug in the simulator itself: still a failure with a seed to replay, not a crash.
            return result(CheckFailure.ofException("simulator-error", "", e), world.scheduler().executedCount());
        }
    }

    /**
     * The voter set of the most advanced log lost its majority of intact disks: a wipe and a
     * voter change decided before it raced (a request delayed in a paused leader's queue, say).
     * No leader can be elected again without an unclean recovery, which KIP-853 has none of: that
     * is outside the fault model. The run heals and goes on for the liveness bound with every
     * safety check on, but no convergence is required; its phase says so
     * ({@value #BEYOND_DISK_LOSS_BOUND}) and the sweeps count such runs.
     */
    private SimulationResult beyondDiskLossBound() {
        phase = BEYOND_DISK_LOSS_BOUND;
        world.heal(Set.of());
        loop.runFor(LIVENESS_BOUND_MS);
        world.checker().finish();
        return result(null, 0);
    }

    /** A random minority of the voters that are down stays down for the first convergence. */
    private Set<Integer> chooseKeptDown() {
        int budget = (world.cluster().voters().size() - 1) / 2;
        List<Integer> down = new ArrayList<>();
        for (SimNode voter : world.cluster().voters()) {
            if (!voter.isRunning()) {
                down.add(voter.nodeId());
            }
        }
        Set<Integer> kept = new TreeSet<>();
        IntactVoters intact = world.faults().intactVoters();
        while (budget > 0 && !down.isEmpty() && world.livenessRandom().nextBoolean()) {
            int candidate = down.remove(world.livenessRandom().nextInt(down.size()));
            kept.add(candidate);
            // A replaced disk is no voter: the voters up must still be a majority of intact ones.
            if (!intact.majorityUpWithout(kept)) {
                kept.remove(candidate);
            }
            budget--;
        }
        return kept;
    }

    /** The nodes that must be running: all but those kept down. */
    private Set<Integer> expectedUp(Set<Integer> keptDown) {
        Set<Integer> up = new TreeSet<>();
        for (SimNode node : world.cluster().nodes()) {
            if (!keptDown.contains(node.nodeId())) {
                up.add(node.nodeId());
            }
        }
        return up;
    }

    private SimulationResult result(CheckFailure failure, long failureEvent) {
        return SimulationResult.of(options, world, phase, failure, failureEvent);
    }
}

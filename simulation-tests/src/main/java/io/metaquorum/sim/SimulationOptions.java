package io.metaquorum.sim;

import io.metaquorum.sim.workload.FaultKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * What one simulation run is: its seed and shape. Everything else is drawn from the seed.
 *
 * @param safetyEvents events in the safety phase (the liveness phase follows, bounded separately)
 * @param faults       the faults allowed; with {@code swarm} each seed keeps a random subset
 * @param swarm        true when {@code faults} was given as {@code all}
 * @param recordTimeline keep what the HTML timeline needs
 * @param system       voters run the real controller and observers the real broker, under an
 *                     admin workload, with the system invariants (raft-only mode when false)
 */
public record SimulationOptions(long seed, long safetyEvents, EnumSet<FaultKind> faults, boolean swarm, int voters,
                                int observers, BrokenVariant variant, boolean recordTimeline, boolean system) {
    public static final long DEFAULT_EVENTS = 50_000;

    public SimulationOptions {
        if (voters < 1 || voters > 9 || observers < 0 || observers > 9) {
            throw new IllegalArgumentException("--nodes must be 1..9 and --observers 0..9");
        }
        if (safetyEvents < 1) {
            throw new IllegalArgumentException("--events must be positive");
        }
        faults = EnumSet.copyOf(faults.isEmpty() ? EnumSet.noneOf(FaultKind.class) : faults);
    }

    /** A raft-only run. */
    public SimulationOptions(long seed, long safetyEvents, EnumSet<FaultKind> faults, boolean swarm, int voters,
                             int observers, BrokenVariant variant, boolean recordTimeline) {
        this(seed, safetyEvents, faults, swarm, voters, observers, variant, recordTimeline, false);
    }

    /** The default run: every fault allowed (swarm), 3 voters and 2 observers. */
    public static SimulationOptions defaults(long seed) {
        return new SimulationOptions(seed, DEFAULT_EVENTS, EnumSet.allOf(FaultKind.class), true, 3, 2,
                BrokenVariant.NONE, false);
    }

    /** The default system run ({@code mq-simulate --system}): every fault allowed, 3 controllers and 3 brokers. */
    public static SimulationOptions systemDefaults(long seed) {
        return new SimulationOptions(seed, DEFAULT_EVENTS, EnumSet.allOf(FaultKind.class), true, 3, 3,
                BrokenVariant.NONE, false, true);
    }

    public SimulationOptions withSeed(long newSeed) {
        return new SimulationOptions(newSeed, safetyEvents, faults, swarm, voters, observers, variant, recordTimeline,
                system);
    }

    public SimulationOptions withVariant(BrokenVariant newVariant) {
        return new SimulationOptions(seed, safetyEvents, faults, swarm, voters, observers, newVariant, recordTimeline,
                system);
    }

    public SimulationOptions withEvents(long events) {
        return new SimulationOptions(seed, events, faults, swarm, voters, observers, variant, recordTimeline,
                system);
    }

    public SimulationOptions withTimeline(boolean record) {
        return new SimulationOptions(seed, safetyEvents, faults, swarm, voters, observers, variant, record, system);
    }

    public SimulationOptions withSystem(boolean systemMode) {
        return new SimulationOptions(seed, safetyEvents, faults, swarm, voters, observers, variant, recordTimeline,
                systemMode);
    }

    /** The exact command that replays this run. */
    public String replayCommand() {
        return "bin/mq-simulate " + String.join(" ", replayArguments());
    }

    /** The arguments of {@link #replayCommand()}: they name this run exactly (a mutant world gets a run so). */
    public String[] replayArguments() {
        List<String> args = new ArrayList<>(List.of("--seed", Long.toString(seed), "--events",
                Long.toString(safetyEvents), "--faults", swarm ? "all" : FaultKind.names(faults), "--nodes",
                Integer.toString(voters), "--observers", Integer.toString(observers)));
        if (system) {
            args.add("--system");
        }
        if (variant != BrokenVariant.NONE) {
            args.add("--broken");
            args.add(variant.cliName());
        }
        return args.toArray(new String[0]);
    }
}

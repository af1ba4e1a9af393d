package io.metaquorum.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What one passing run must have done at least, per seed: a run that does little (no faults,
 * one leader, a handful of commits, almost no judged answers) proves little even when it
 * passes. Each floor sits somewhat below the smallest value the suite's seeds were measured
 * to reach (simulation-tests/README.md, "Floors"), so a change that makes runs do less fails
 * the sweep instead of passing it quietly.
 *
 * @param faultsFired      faults of any kind (discrete, per message, per disk)
 * @param leaderEpochs     epochs that had a leader
 * @param committedOffsets the committed log's length
 * @param appendsJudged    client appends acknowledged, each judged by {@code append-exactly-once}
 */
record RunFloors(long faultsFired, long leaderEpochs, long committedOffsets, long appendsJudged) {
    /** {@code SimSeedSweepTest}: 3 voters, 2 observers, 50,000 safety events. */
    static final RunFloors SWEEP = new RunFloors(2, 1, 500, 400);
    /**
     * The sweep's seeds that spend their safety events on client appends refused at one simulated
     * millisecond before any leader exists ({@code ClientWorkload} rounds a burst's intervals down
     * to 0 ms; simulation-tests/README.md, "Known weakness"): measured over seeds 1-2,000, they commit 3-5 offsets where
     * every other seed commits 657 or more. They are held to {@link #IDLE} only, and must still
     * fall short of {@link #SWEEP}: once the rounding is fixed, the list must go.
     */
    static final Set<Long> IDLE_SWEEP_SEEDS = Set.of(88L, 380L, 393L, 460L, 931L, 943L, 949L, 1234L, 1848L, 1881L);
    static final RunFloors IDLE = new RunFloors(1, 1, 3, 2);
    /** {@code SimSeedPropertiesTest}: 1-5 voters, 0-3 observers, 20,000 safety events. */
    static final RunFloors PROPERTIES = new RunFloors(8, 1, 200, 200);
    /**
     * {@code SimSystemSweepTest}: 3 controllers, 3 brokers; no raft client appends (the admin
     * clients write). Seed 4 (14% message loss, 199 crashes and stops) committed 260 offsets
     * after the changes of 2026-12-03, where every seed had committed 613 or more; not yet
     * explained (simulation-tests/README.md, "Floors").
     */
    static final RunFloors SYSTEM = new RunFloors(60, 4, 250, 0);

    /** The metrics of {@code stats} below their floor, each as "name value (floor F)"; empty when none is. */
    List<String> unmet(RunStats stats) {
        List<String> unmet = new ArrayList<>();
        below(unmet, "faults fired", stats.faultsFired(), faultsFired);
        below(unmet, "leader epochs", stats.elections(), leaderEpochs);
        below(unmet, "offsets committed", stats.committedOffsets(), committedOffsets);
        below(unmet, "appends judged", stats.appendsAcked(), appendsJudged);
        return unmet;
    }

    static void below(List<String> unmet, String name, long value, long floor) {
        if (value < floor) {
            unmet.add(name + " " + value + " (floor " + floor + ")");
        }
    }
}

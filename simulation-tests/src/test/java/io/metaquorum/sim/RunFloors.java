package io.metaquorum.sim;

import java.util.ArrayList;
import java.util.List;

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
    static final RunFloors SWEEP = new RunFloors(1, 1, 1, 0);
    /** {@code SimSeedPropertiesTest}: 1-5 voters, 0-3 observers, 20,000 safety events. */
    static final RunFloors PROPERTIES = new RunFloors(1, 1, 1, 0);
    /** {@code SimSystemSweepTest}: 3 controllers, 3 brokers, the default event budget. */
    static final RunFloors SYSTEM = new RunFloors(1, 2, 1, 0);

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

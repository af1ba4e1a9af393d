package io.metaquorum.sim;

import io.metaquorum.sim.system.world.SystemStats;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the system layer of one passing {@code SimSystemSweepTest} seed must have done at
 * least, beside the raft floors ({@link RunFloors#SYSTEM}); set somewhat below the smallest
 * values measured over the sweep's seeds (simulation-tests/README.md, "Floors").
 *
 * @param adminCalls     admin calls finished
 * @param answersJudged  definite per-item answers the reference model judged
 * @param itemsAcknowledged write items answered NONE
 * @param registrations  broker registrations committed
 */
record SystemFloors(long adminCalls, long answersJudged, long itemsAcknowledged, long registrations) {
    static final SystemFloors SWEEP = new SystemFloors(300, 35, 4, 3);

    /** The metrics below their floor, as "name value (floor F)"; the raft ones first. */
    List<String> unmet(SimulationResult result) {
        List<String> unmet = RunFloors.SYSTEM.unmet(result.stats());
        metrics(result.system()).forEach((name, value) -> RunFloors.below(unmet, name, value, floor(name)));
        return unmet;
    }

    /** The system metrics a floor applies to, by name. */
    static Map<String, Long> metrics(SystemStats system) {
        Map<String, Long> metrics = new TreeMap<>();
        metrics.put("admin calls", system.adminCalls());
        metrics.put("answers judged", system.answersJudged());
        metrics.put("write items acknowledged", system.itemsAcknowledged());
        metrics.put("registrations", system.registrations());
        return metrics;
    }

    private long floor(String name) {
        return switch (name) {
            case "admin calls" -> adminCalls;
            case "answers judged" -> answersJudged;
            case "write items acknowledged" -> itemsAcknowledged;
            default -> registrations;
        };
    }
}

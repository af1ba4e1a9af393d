package io.metaquorum.sim.workload;

/** Hears of each fault injected, for the timeline: a band from start to end (equal for instants). */
@FunctionalInterface
public interface FaultListener {
    FaultListener NONE = (label, nodeId, startMs, endMs) -> { };

    /** @param nodeId the node hit, or -1 for the whole network */
    void onFault(String label, int nodeId, long startMs, long endMs);
}

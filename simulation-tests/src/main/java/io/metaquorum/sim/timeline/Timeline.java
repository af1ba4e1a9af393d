package io.metaquorum.sim.timeline;

import java.util.List;

/**
 * One run drawn as data: per node, the role and epoch over simulated time; faults and
 * partitions as bands; commits as ticks.
 *
 * @param healedAtMs when the liveness phase began, or -1
 */
public record Timeline(String title, long endMs, long healedAtMs, List<NodeTrack> nodes, List<Band> bands,
                       List<Tick> ticks) {
    /** A period in which a node kept one role in one epoch; role {@code DOWN} while not running. */
    public record Segment(long startMs, long endMs, String role, int epoch) {
    }

    public record NodeTrack(int nodeId, boolean voter, List<Segment> segments) {
    }

    /** A fault: {@code nodeId} -1 for the network as a whole; start equals end for an instant. */
    public record Band(String label, int nodeId, long startMs, long endMs) {
    }

    /** A leader's high watermark moved to {@code highWatermark}. */
    public record Tick(long timeMs, int nodeId, long highWatermark) {
    }
}

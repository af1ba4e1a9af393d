package io.metaquorum.sim.timeline;

import java.util.List;

/**
 * One run drawn as data: per node, the role and epoch over simulated time; faults and
 * partitions as bands; commits as ticks; in system mode also per broker its lifecycle state
 * and its registration in the committed image, and one mark per finished admin call.
 *
 * @param healedAtMs when the liveness phase began, or -1
 * @param brokers    empty in Raft-only mode
 * @param admin      empty in Raft-only mode
 */
public record Timeline(String title, long endMs, long healedAtMs, List<NodeTrack> nodes, List<Band> bands,
                       List<Tick> ticks, List<BrokerTrack> brokers, List<AdminMark> admin) {
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

    /** A period in which a broker kept one state ({@link BrokerTimeline}'s labels). */
    public record Period(long startMs, long endMs, String state) {
    }

    /**
     * One broker: {@code states} its process's lifecycle state ({@code DOWN} while not running),
     * {@code registration} what the controllers' committed image says of it: UNREGISTERED,
     * FENCED or UNFENCED.
     */
    public record BrokerTrack(int nodeId, List<Period> states, List<Period> registration) {
    }

    /**
     * One admin call as its client saw it end: {@code outcome} is {@code ok} (every item
     * acknowledged), {@code error} (every item definite, some refused) or {@code unknown}
     * (some item's outcome is not known: timed out or ambiguous).
     */
    public record AdminMark(long startMs, long endMs, int client, String kind, String outcome, int items) {
    }
}

package io.metaquorum.node.trace;

import io.metaquorum.common.time.Time;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * When one admin request passed each stage on this node, asked for by the client
 * (docs/benchmarks.md, "Where a create spends its time"): the node's clock is read at each
 * stage and the request's answer carries the durations between them, so no clocks of two
 * processes are ever compared. A node that forwards the request adds the controller's own
 * durations after its own. Stages are marked from several threads (the listener's, the
 * controller's, raft's; guarded by the trace's lock); each is kept once, the first time it is
 * marked. {@link #OFF} marks nothing and is what every untraced request carries, so tracing
 * costs an untraced request a field read per stage.
 */
public final class RequestTrace {
    /** The stages, in the order a request passes them. */
    public enum Stage {
        /** The request reached this node's listener. */
        RECEIVED,
        /** Handed to this node's controller queue. */
        QUEUED,
        /** Its turn on the controller's thread began. */
        RUN_STARTED,
        /** Decided, replayed into the decision state and handed to raft. */
        APPENDED,
        /** Raft's driver took the append into its log. */
        RAFT_ACCEPTED,
        /** Raft committed the last record (the leader's high watermark passed it). */
        COMMITTED,
        /** The node's loader replayed the committed records. */
        LOADED,
        /** Sent on to the active controller. */
        FORWARDED,
        /** The active controller's answer came back. */
        FORWARD_ANSWERED,
        /** The answer was built and handed back to the listener. */
        ANSWERED
    }

    /** Traces nothing. */
    public static final RequestTrace OFF = new RequestTrace();

    private static final long UNSET = Long.MIN_VALUE;

    private final Time time;
    private final int nodeId;
    /** When each stage was marked, by ordinal; null for {@link #OFF}. Guarded by {@code this}. */
    private final long[] marks;
    /** Guarded by {@code this}. */
    private final List<String> remoteHops = new ArrayList<>();

    private RequestTrace() {
        this.time = null;
        this.nodeId = -1;
        this.marks = null;
    }

    private RequestTrace(Time time, int nodeId) {
        this.time = time;
        this.nodeId = nodeId;
        this.marks = new long[Stage.values().length];
        Arrays.fill(marks, UNSET);
    }

    /** A trace of a request that reached node {@code nodeId} now. */
    public static RequestTrace received(Time time, int nodeId) {
        RequestTrace trace = new RequestTrace(time, nodeId);
        trace.mark(Stage.RECEIVED);
        return trace;
    }

    public boolean isOn() {
        return marks != null;
    }

    /** Marks {@code stage} now, unless it was marked already. */
    public void mark(Stage stage) {
        if (marks != null) {
            long now = time.nanoseconds();
            synchronized (this) {
                if (marks[stage.ordinal()] == UNSET) {
                    marks[stage.ordinal()] = now;
                }
            }
        }
    }

    /** Adds the trace another node reported for the part of this request it served (its {@link #describe}). */
    public void addRemoteHop(String hop) {
        if (marks != null) {
            synchronized (this) {
                remoteHops.add(hop);
            }
        }
    }

    /**
     * The durations between the stages this node marked, in microseconds, ending now (the
     * answer leaves), followed by the hops other nodes reported, separated by {@code "; "}:
     * e.g. {@code node=4 handle_us=41 forward_us=2310 reply_us=35 total_us=2391; node=1 queue_us=12 ...}.
     * A duration whose two stages were not both marked is left out.
     */
    public synchronized String describe() {
        if (marks == null) {
            return "";
        }
        long end = time.nanoseconds();
        StringBuilder out = new StringBuilder("node=").append(nodeId);
        duration(out, "handle_us", Stage.RECEIVED, Stage.FORWARDED);
        duration(out, "forward_us", Stage.FORWARDED, Stage.FORWARD_ANSWERED);
        duration(out, "edge_us", Stage.RECEIVED, Stage.QUEUED);
        duration(out, "queue_us", Stage.QUEUED, Stage.RUN_STARTED);
        duration(out, "decide_us", Stage.RUN_STARTED, Stage.APPENDED);
        duration(out, "raft_queue_us", Stage.APPENDED, Stage.RAFT_ACCEPTED);
        duration(out, "replicate_us", Stage.RAFT_ACCEPTED, Stage.COMMITTED);
        duration(out, "load_us", Stage.COMMITTED, Stage.LOADED);
        duration(out, "answer_us", marks[Stage.LOADED.ordinal()] != UNSET ? Stage.LOADED : Stage.RUN_STARTED,
                Stage.ANSWERED);
        long answered = marks[Stage.ANSWERED.ordinal()];
        long replyFrom = marks[Stage.FORWARD_ANSWERED.ordinal()] != UNSET ? marks[Stage.FORWARD_ANSWERED.ordinal()]
                : answered;
        if (replyFrom != UNSET) {
            out.append(" reply_us=").append(micros(end - replyFrom));
        }
        out.append(" total_us=").append(micros(end - marks[Stage.RECEIVED.ordinal()]));
        for (String hop : remoteHops) {
            out.append("; ").append(hop);
        }
        return out.toString();
    }

    private void duration(StringBuilder out, String name, Stage from, Stage to) {
        long start = marks[from.ordinal()];
        long stop = marks[to.ordinal()];
        if (start != UNSET && stop != UNSET) {
            out.append(' ').append(name).append('=').append(micros(stop - start));
        }
    }

    private static long micros(long nanos) {
        return Math.max(0, nanos) / 1_000;
    }
}

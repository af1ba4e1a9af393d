package io.metaquorum.node.trace;

import io.metaquorum.common.invariant.Invariants;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Ties a traced request to the raft records its turn appended, so the raft stages (taken
 * into the log, committed, replayed by the loader) are marked on the trace of the request
 * that wrote them. The controller's thread opens a turn with {@link #begin}, the appends made
 * during it are registered by their last offset, and raft's thread marks them as it takes and
 * commits them. Untraced turns register nothing, so the commit path pays one volatile read.
 * Appends a leader change truncated are dropped once a later commit passes their offsets.
 */
public final class AppendTraces {
    /** Traced requests by the last offset they appended, waiting for their commit. Guarded by itself. */
    private final NavigableMap<Long, RequestTrace> waiting = new TreeMap<>();
    /** Whether {@link #waiting} may hold anything: read without the lock, so an untraced commit takes none. */
    private volatile boolean anyWaiting;
    /** The trace of the turn the controller's thread is running; only that thread reads or writes it. */
    private RequestTrace current = RequestTrace.OFF;

    /** The controller's thread starts running the request {@code trace} belongs to. */
    public void begin(RequestTrace trace) {
        Invariants.check(current == RequestTrace.OFF, "a traced turn began inside another");
        current = trace;
    }

    /** The controller's thread finished the turn. */
    public void end() {
        current = RequestTrace.OFF;
    }

    /**
     * The running turn handed records ending at {@code lastOffset} to raft; returns its trace
     * (OFF when untraced), to be marked when raft takes them.
     */
    public RequestTrace appended(long lastOffset) {
        RequestTrace trace = current;
        if (trace.isOn()) {
            trace.mark(RequestTrace.Stage.APPENDED);
            synchronized (waiting) {
                waiting.put(lastOffset, trace);
                anyWaiting = true;
            }
        }
        return trace;
    }

    /** Raft committed every offset up to {@code lastOffset} (raft's thread, before the loader replays them). */
    public void committed(long lastOffset) {
        if (anyWaiting) {
            synchronized (waiting) {
                for (RequestTrace trace : waiting.headMap(lastOffset, true).values()) {
                    trace.mark(RequestTrace.Stage.COMMITTED);
                }
            }
        }
    }

    /** The loader replayed every offset up to {@code lastOffset}; their traces are done here. */
    public void loaded(long lastOffset) {
        if (anyWaiting) {
            synchronized (waiting) {
                Map<Long, RequestTrace> done = waiting.headMap(lastOffset, true);
                for (RequestTrace trace : done.values()) {
                    trace.mark(RequestTrace.Stage.LOADED);
                }
                done.clear();
                anyWaiting = !waiting.isEmpty();
            }
        }
    }
}

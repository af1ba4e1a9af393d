package io.metaquorum.sim.system.world;

import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.History;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Bounds the admin history's unknown outcomes from what the simulator sees of the log, so the
 * linearizability search stays small over a long run. An attempt a controller handled took
 * its whole effect, if any, as records appended right then, below the end of that
 * controller's decision image; once the committed log reaches that end, those offsets are
 * final (holding its records or others), so the attempt took effect before now or never and
 * its operations, once the client counts them unknown, are sealed ({@link History#seal}). An
 * attempt that appended nothing can never take effect and is decided at once.
 */
final class HistorySealer {
    private final History<AdminInput, AdminOutput> history;
    /** Operations by the committed end offset that decides them. */
    private final TreeMap<Long, List<Integer>> waiting = new TreeMap<>();
    private long sealed;

    HistorySealer(History<AdminInput, AdminOutput> history) {
        this.history = history;
    }

    /**
     * A controller handled the attempt of operations {@code [firstOp, endOp)}; its decision
     * image ended at {@code endBefore} before and {@code endAfter} after.
     */
    void handled(int firstOp, int endOp, long endBefore, long endAfter) {
        long decidedAt = endAfter == endBefore ? 0 : endAfter;
        List<Integer> ops = waiting.computeIfAbsent(decidedAt, offset -> new ArrayList<>());
        for (int op = firstOp; op < endOp; op++) {
            ops.add(op);
        }
    }

    /** The committed log ends at {@code committedEnd}: seals what it decided and the client gave up on. */
    void committedUpTo(long committedEnd, long nowMs) {
        for (List<Integer> ops : waiting.headMap(committedEnd, true).values()) {
            ops.removeIf(op -> {
                if (history.awaitsSeal(op)) {
                    history.seal(op, nowMs);
                    sealed++;
                    return true;
                }
                return history.answeredDefinitely(op);
            });
        }
        waiting.values().removeIf(List::isEmpty);
    }

    long sealed() {
        return sealed;
    }
}

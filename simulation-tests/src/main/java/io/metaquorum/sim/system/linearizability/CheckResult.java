package io.metaquorum.sim.system.linearizability;

import java.util.List;

/**
 * The verdict on a history.
 *
 * @param verdict      what the checker found
 * @param partition    the sub-history that is not linearizable (or ran out of budget); null when linearizable
 * @param report       for a violation: the sub-history's operations and the longest order found that
 *                     explains a prefix of them; empty otherwise
 * @param partitions   how many sub-histories were checked
 * @param steps        search steps taken, over all sub-histories
 */
public record CheckResult(Verdict verdict, String partition, List<String> report, int partitions, long steps) {
    public enum Verdict {
        LINEARIZABLE,
        NOT_LINEARIZABLE,
        /** The step budget ran out before the search ended: no verdict, never silently "ok". */
        UNDECIDED
    }

    public CheckResult {
        report = List.copyOf(report);
    }

    public boolean linearizable() {
        return verdict == Verdict.LINEARIZABLE;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(verdict.name()).append(" (").append(partitions)
                .append(" sub-histories, ").append(steps).append(" steps)");
        if (partition != null) {
            text.append(" in sub-history '").append(partition).append("'");
        }
        for (String line : report) {
            text.append("\n  ").append(line);
        }
        return text.toString();
    }
}

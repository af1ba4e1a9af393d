package io.metaquorum.metadata.tool;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code mq-metadata diff}: compares two stored logs record by record (epoch, control flag
 * and bytes) from the later of their two log starts, and reports the first offset where they
 * differ with both records printed, or that they are identical up to where the shorter one
 * ends (a follower behind its leader is not a divergence).
 */
public final class LogDiff {
    /** The outcome: {@code differs} with the report lines. */
    public record Result(boolean differs, List<String> lines) {
    }

    private LogDiff() {
    }

    public static Result compare(LogDirectory a, LogDirectory b) {
        List<String> lines = new ArrayList<>();
        long from = Math.max(a.startOffset(), b.startOffset());
        if (a.startOffset() != b.startOffset()) {
            lines.add("# A starts at offset " + a.startOffset() + ", B at " + b.startOffset() + ": comparing from "
                    + from + " (earlier records are in a snapshot)");
        }
        try (StoredRecords left = new StoredRecords(a.reader(), from);
             StoredRecords right = new StoredRecords(b.reader(), from)) {
            long offset = from;
            while (true) {
                StoredRecords.Entry x = left.next();
                StoredRecords.Entry y = right.next();
                if (x == null || y == null) {
                    lines.add("identical up to " + offset + " (A ends at " + a.endOffset() + ", B at "
                            + b.endOffset() + ")");
                    return new Result(false, lines);
                }
                if (!x.sameAs(y)) {
                    lines.add("first difference at offset " + offset + ":");
                    lines.add("A " + a.path() + ": " + x.describe());
                    lines.add("B " + b.path() + ": " + y.describe());
                    return new Result(true, lines);
                }
                offset++;
            }
        }
    }
}

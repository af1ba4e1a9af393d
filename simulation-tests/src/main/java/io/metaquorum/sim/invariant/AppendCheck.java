package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.machine.AppendTracker;
import java.util.ArrayList;
import java.util.List;

/**
 * Every acknowledged append is in the committed log, exactly once, where it was
 * acknowledged. (Duplicates of any append are caught as the committed log grows, in
 * {@link CommittedLog}.) An acknowledgment beyond the committed prefix's end is judged
 * once the prefix catches up; at the end of a run none may be left unjudged.
 */
public final class AppendCheck {
    private final List<AppendTracker.AckedAppend> unjudged = new ArrayList<>();
    private long judgedCount;

    public void onAcked(List<AppendTracker.AckedAppend> acked, CommittedLog committed) {
        unjudged.addAll(acked);
        if (unjudged.isEmpty()) {
            return;
        }
        List<AppendTracker.AckedAppend> stillWaiting = new ArrayList<>();
        for (AppendTracker.AckedAppend ack : unjudged) {
            if (ack.offset() >= committed.committedEndOffset()) {
                stillWaiting.add(ack);
                continue;
            }
            long offset = committed.offsetOfAppend(ack.appendId());
            if (offset != ack.offset()) {
                throw new CheckFailure("append-exactly-once", "append " + ack.appendId() + " was acknowledged by node "
                        + ack.nodeId() + " at offset " + ack.offset() + " but the committed log has it at "
                        + (offset < 0 ? "no offset" : Long.toString(offset)));
            }
            judgedCount++;
        }
        unjudged.clear();
        unjudged.addAll(stillWaiting);
    }

    /** At the end of a run: every acknowledgment must have been judged. */
    public void requireAllJudged() {
        if (!unjudged.isEmpty()) {
            AppendTracker.AckedAppend first = unjudged.get(0);
            throw new CheckFailure("append-exactly-once", unjudged.size() + " acknowledged appends never appeared in"
                    + " the committed log, the first: append " + first.appendId() + " at offset " + first.offset());
        }
    }

    public long judgedCount() {
        return judgedCount;
    }
}

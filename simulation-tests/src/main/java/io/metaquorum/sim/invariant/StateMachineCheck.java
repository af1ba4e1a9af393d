package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import java.util.Arrays;

/**
 * The state machine on every node equals the replay of the committed prefix it has
 * applied: after each change of a node's applied offset, its state's digest must equal the
 * reference replay's digest at that offset. An applied offset beyond the committed
 * prefix's end is judged once the prefix catches up.
 */
public final class StateMachineCheck {
    private final long[] judgedApplied;
    private final long[] judgedIncarnation;

    public StateMachineCheck(int maxNodeId) {
        judgedApplied = new long[maxNodeId + 1];
        judgedIncarnation = new long[maxNodeId + 1];
        Arrays.fill(judgedApplied, -1);
    }

    public void observe(int nodeId, long incarnation, long appliedOffset, long digest, CommittedLog committed) {
        if (judgedIncarnation[nodeId] == incarnation && judgedApplied[nodeId] == appliedOffset) {
            return;
        }
        if (appliedOffset > committed.committedEndOffset()) {
            return;
        }
        judgedIncarnation[nodeId] = incarnation;
        judgedApplied[nodeId] = appliedOffset;
        long expected = committed.digestAt(appliedOffset);
        if (digest != expected) {
            throw new CheckFailure("state-machine-matches-replay", "node " + nodeId + " applied up to offset "
                    + appliedOffset + " but its state differs from a replay of the committed log up to there");
        }
    }
}

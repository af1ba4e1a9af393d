package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import java.util.function.Supplier;

/**
 * A silenced leader, once back (resumed, or its links restored), learns of its successor and
 * leaves the epoch it led within a bound: a leader that goes on believing it leads refuses
 * nothing itself, but its clients and brokers keep talking to it. Judged while the run steps
 * on after the leader came back at {@code sinceMs}.
 */
public final class StepDownCheck {
    public static final String NAME = "resumed-leader-steps-down";

    private final int nodeId;
    private final int silentEpoch;
    private final long sinceMs;
    private final long boundMs;
    private final String how;

    /** @param how the silent fault that ended, for the report ("pause", "black-hole, with voter 3") */
    public StepDownCheck(int nodeId, int silentEpoch, long sinceMs, long boundMs, String how) {
        this.nodeId = nodeId;
        this.silentEpoch = silentEpoch;
        this.sinceMs = sinceMs;
        this.boundMs = boundMs;
        this.how = how;
    }

    /**
     * True once the node runs in an epoch above the one it led, or no longer runs; false while
     * it may still step down; fails once the bound has passed.
     */
    public boolean steppedDown(boolean running, int epoch, long nowMs, Supplier<String> roles) {
        if (!running || epoch > silentEpoch) {
            return true;
        }
        if (nowMs - sinceMs > boundMs) {
            throw failure(epoch, nowMs, roles);
        }
        return false;
    }

    /** The failure when the run cannot wait longer (the bound passed, or no event is left). */
    public CheckFailure failure(int epoch, long nowMs, Supplier<String> roles) {
        return new CheckFailure(NAME, "old leader " + nodeId + " still in epoch " + epoch + " " + (nowMs - sinceMs)
                + " ms after its " + how + " ended; bound " + boundMs + " ms; " + roles.get());
    }
}

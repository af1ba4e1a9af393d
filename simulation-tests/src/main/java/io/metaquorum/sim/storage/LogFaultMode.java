package io.metaquorum.sim.storage;

/**
 * Deliberately broken log behaviours, switched on only by the checker self-test to prove
 * the invariants catch what each would cause.
 */
public enum LogFaultMode {
    /** The contract, faithfully. */
    CORRECT,
    /**
     * "Acknowledge before sync": writes report themselves flushed at once and the sync the
     * driver asks for is skipped; the data reaches the disk only with the operating
     * system's periodic writeback, so a crash loses acknowledged records.
     */
    ACK_BEFORE_SYNC,
    /**
     * "Skip truncation on divergence": {@code truncateTo} returns normally and removes
     * nothing, so a follower keeps its stale tail where the leader's log differs.
     */
    SKIP_TRUNCATION
}

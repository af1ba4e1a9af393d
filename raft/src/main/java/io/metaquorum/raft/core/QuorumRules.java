package io.metaquorum.raft.core;

import io.metaquorum.raft.core.quorum.EpochAdoptionRule;
import io.metaquorum.raft.core.quorum.HighWatermarkRule;

/**
 * The two decisions the safety argument rests on, as pure functions handed to the core.
 * Production always uses {@link #STANDARD}; the simulator swaps in deliberately broken
 * rules to prove that its invariant checkers catch the violation they would cause.
 */
public record QuorumRules(HighWatermarkRule highWatermark, EpochAdoptionRule epochAdoption) {
    public static final QuorumRules STANDARD =
            new QuorumRules(HighWatermarkRule.STANDARD, EpochAdoptionRule.STANDARD);
}

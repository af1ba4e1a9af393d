package io.metaquorum.raft.core;

import io.metaquorum.raft.core.quorum.EpochAdoptionRule;
import io.metaquorum.raft.core.quorum.HighWatermarkRule;
import io.metaquorum.raft.core.quorum.PreVoteRetryRule;

/**
 * The decisions the safety argument (high watermark, epoch adoption) and the liveness of
 * elections under a silent leader (pre-vote retries) rest on, handed to the core.
 * Production always uses {@link #STANDARD}; the simulator swaps in deliberately broken
 * rules to prove that its invariant checkers catch the violation they would cause.
 */
public record QuorumRules(HighWatermarkRule highWatermark, EpochAdoptionRule epochAdoption,
                          PreVoteRetryRule preVoteRetry) {
    public static final QuorumRules STANDARD =
            new QuorumRules(HighWatermarkRule.STANDARD, EpochAdoptionRule.STANDARD, PreVoteRetryRule.STANDARD);
}

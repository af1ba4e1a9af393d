package io.metaquorum.raft.core.quorum;

/**
 * BROKEN twin of the raft module's {@code EpochAdoptionRule}, for the checker self-test only
 * (variant {@code pre-vote-bumps-epoch}): a pre-vote moves its receivers to its epoch, as a
 * real vote does. Loaded in place of the production class (see {@code HighWatermarkRule}'s
 * twin); same public members.
 */
public final class EpochAdoptionRule {
    private EpochAdoptionRule() {
    }

    public static boolean adoptsEpoch(boolean preVote) {
        return true;
    }
}

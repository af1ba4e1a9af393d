package io.metaquorum.raft.core.quorum;

/**
 * Whether a vote request with a higher epoch makes the receiver move to that epoch: the one
 * place pre-votes are kept harmless. The checker self-test replaces this class by a broken
 * twin (see {@link HighWatermarkRule}).
 */
public final class EpochAdoptionRule {
    private EpochAdoptionRule() {
    }

    /**
     * KIP-996: a real vote request moves the receiver to its epoch; a pre-vote never does, so
     * a partitioned replica's pre-votes cannot disrupt the quorum.
     */
    public static boolean adoptsEpoch(boolean preVote) {
        return !preVote;
    }
}

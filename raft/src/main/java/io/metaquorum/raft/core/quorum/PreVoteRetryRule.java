package io.metaquorum.raft.core.quorum;

/**
 * How survivors of a silent leader settle who campaigns when their first pre-votes cross
 * (KIP-996: only a successful fetch is hearing from the leader). The checker self-test
 * replaces this class by a twin with the rules from before issue 9, both false (see
 * {@link HighWatermarkRule}); so these are methods, not constants javac would inline.
 */
public final class PreVoteRetryRule {
    private PreVoteRetryRule() {
    }

    /**
     * A voter returning from a lost pre-vote to the leader it had lost keeps counting that
     * leader lost, so it grants its peers' pre-votes until a fetch succeeds.
     */
    public static boolean leaderStillLostAfterPreVote() {
        return true;
    }

    /**
     * A pre-voting replica refused by a voter that then pre-votes itself asks that voter
     * again: the refusal came a moment before the voter lost the leader too.
     */
    public static boolean askAgainWhenRefuserPreVotes() {
        return true;
    }
}

package io.metaquorum.raft.core.quorum;

/**
 * BROKEN twin of the raft module's {@code PreVoteRetryRule}, for the checker self-test only
 * (variant {@code pre-vote-livelock}): the rules from before issue 9. A voter back from a
 * lost pre-vote counts the leader it lost as heard from (a fresh fetch deadline, refusing its
 * peers' pre-votes), and a refused pre-voter does not ask again a voter that starts
 * pre-voting itself, so the survivors of a silent leader can refuse each other round after
 * round. Loaded in place of the production class (see {@code HighWatermarkRule}'s twin).
 */
public final class PreVoteRetryRule {
    private PreVoteRetryRule() {
    }

    public static boolean leaderStillLostAfterPreVote() {
        return false;
    }

    public static boolean askAgainWhenRefuserPreVotes() {
        return false;
    }
}

package io.metaquorum.raft.core.quorum;

/**
 * How survivors of a silent leader settle who campaigns when their first pre-votes cross
 * (KIP-996: only a successful fetch is hearing from the leader).
 *
 * @param leaderStillLostAfterPreVote a voter returning from a lost pre-vote to the leader it
 *                                    had lost keeps counting that leader lost, so it grants
 *                                    its peers' pre-votes until a fetch succeeds
 * @param askAgainWhenRefuserPreVotes a pre-voting replica refused by a voter that then pre-votes
 *                                    itself asks that voter again: the refusal came a moment
 *                                    before the voter lost the leader too
 */
public record PreVoteRetryRule(boolean leaderStillLostAfterPreVote, boolean askAgainWhenRefuserPreVotes) {
    public static final PreVoteRetryRule STANDARD = new PreVoteRetryRule(true, true);
}

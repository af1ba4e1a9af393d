package io.metaquorum.raft.core.quorum;

/**
 * Whether a vote request with a higher epoch makes the receiver move to that epoch.
 */
@FunctionalInterface
public interface EpochAdoptionRule {
    /**
     * The standard rule (KIP-996): a real vote request moves the receiver to its epoch; a
     * pre-vote never does, so a partitioned replica's pre-votes cannot disrupt the quorum.
     */
    EpochAdoptionRule STANDARD = preVote -> !preVote;

    boolean adoptsEpoch(boolean preVote);
}

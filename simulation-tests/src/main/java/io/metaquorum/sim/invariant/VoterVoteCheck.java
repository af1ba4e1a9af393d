package io.metaquorum.sim.invariant;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import io.metaquorum.sim.check.CheckFailure;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Only a voter votes (KIP-853): a replica campaigns (pre-vote or vote) or takes office as
 * leader only while the voter set in force on it lists its node id with the directory id of
 * its own disk, and grants a vote only as such a voter of its own voter set or of the
 * candidate's (which may be newer than its own: KIP-853 has a replica answer a candidate whose
 * voter set names it before its own log does). A wiped and reformatted replica has a new
 * directory id and neither the log nor the votes of the voter it was; if it acted as that
 * voter, a committed entry could lose its majority.
 *
 * <p>One replica outside its own voter set may campaign and lead: one the latest VotersRecord
 * of its log removed, while that record is not known committed there. A leader that removed
 * itself and stopped before the remaining voters fetched the record may be the only replica
 * holding it, and must be able to finish the change (it needs a majority of the new set to win).
 *
 * <p>Each vote is judged once, when first seen (a vote read back after a restart was judged
 * when cast); a leadership once, when it begins: a leader may remove itself and lead until the
 * removal commits.
 */
public final class VoterVoteCheck {
    public static final String NAME = "voter-votes-as-voter";

    private final int[] judgedVoteEpoch;
    private final int[] judgedVotedId;
    private final int[] judgedLeaderEpoch;

    public VoterVoteCheck(int maxNodeId) {
        judgedVoteEpoch = new int[maxNodeId + 1];
        judgedVotedId = new int[maxNodeId + 1];
        judgedLeaderEpoch = new int[maxNodeId + 1];
        Arrays.fill(judgedVoteEpoch, -1);
        Arrays.fill(judgedLeaderEpoch, -1);
    }

    /**
     * @param listed            whether the voter set in force on the node lists it with its disk's directory id
     * @param removedPending    whether the node's latest VotersRecord, not known committed there,
     *                          removed it with its disk's directory id
     * @param listedByCandidate whether the voter set in force on a candidate (by node id) lists
     *                          the node with its disk's directory id
     * @param voterSet          that voter set and the node's directory id, for the report
     */
    public void observe(RaftStatus status, boolean listed, boolean removedPending, IntPredicate listedByCandidate,
                        String voterSet) {
        int node = status.nodeId();
        RoleName role = status.role();
        if (role == RoleName.CANDIDATE || role == RoleName.PROSPECTIVE) {
            require(listed || removedPending, status, "campaigns (" + role + ")", voterSet);
        }
        if (role == RoleName.LEADER && judgedLeaderEpoch[node] != status.epoch()) {
            judgedLeaderEpoch[node] = status.epoch();
            require(listed || removedPending, status, "took office as leader", voterSet);
        }
        int voted = status.votedId();
        if (voted >= 0 && voted != node && (judgedVoteEpoch[node] != status.epoch() || judgedVotedId[node] != voted)) {
            judgedVoteEpoch[node] = status.epoch();
            judgedVotedId[node] = voted;
            require(listed || listedByCandidate.test(voted), status, "granted its vote to node " + voted
                    + " (whose voter set does not list it either)", voterSet);
        }
    }

    private static void require(boolean listed, RaftStatus status, String act, String voterSet) {
        if (!listed) {
            throw new CheckFailure(NAME, "node " + status.nodeId() + " " + act + " in epoch " + status.epoch()
                    + " but is not a voter with its own directory id: " + voterSet);
        }
    }
}

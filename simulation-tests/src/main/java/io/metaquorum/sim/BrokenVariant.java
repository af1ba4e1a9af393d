package io.metaquorum.sim;

import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.sim.storage.LogFaultMode;

/**
 * Deliberately broken behaviours for the checker self-test, each switched on only inside
 * the simulation. Each must be caught by the invariants within a bounded number of seeds,
 * proving the checkers can fail. A broken behaviour of the simulated world (the disk, the
 * store, the transport) is a setting of that world; a broken rule of production code (the raft
 * core, the controller, the broker) is a mutation ({@link #mutation()}): a patch of the
 * production sources, {@code src/mutations/NAME.patch}, that the build applies and compiles and
 * a {@link io.metaquorum.sim.mutation.MutantClassLoader} runs, so production code has no hook
 * for it.
 */
public enum BrokenVariant {
    /** The production behaviour. */
    NONE("none"),
    /** A vote is answered but the quorum-state store does not persist it. */
    VOTE_NOT_PERSISTED("vote-not-persisted"),
    /** The high watermark advances over entries of older epochs (Raft's Figure 8): a broken rule. */
    HW_OVER_OLD_EPOCH("hw-over-old-epoch", true),
    /** A follower's log ignores the truncation a diverging epoch asks for. */
    SKIP_TRUNCATION("skip-truncation"),
    /** The log reports writes durable before they are synced. */
    ACK_BEFORE_SYNC("ack-before-sync"),
    /**
     * A pre-vote moves its receivers to a new epoch. The core's pre-votes carry the sender's
     * current epoch (as Kafka's do), so adopting it alone changes nothing; raft.proto documents
     * them as carrying "the epoch it would campaign in", so this variant also sends them for
     * the next epoch, through the simulated transport, and adopts that epoch on receipt (a
     * mutation of the vote handler).
     */
    PRE_VOTE_BUMPS_EPOCH("pre-vote-bumps-epoch", true),
    /**
     * The pre-vote retry rules from before the silent-leader fix (a mutation): a
     * voter back from a lost pre-vote counts the leader it lost as heard from (a fresh fetch
     * deadline, refusing its peers' pre-votes), and a refused pre-voter does not ask again a
     * voter that starts pre-voting itself. The survivors of a silent leader can then refuse
     * each other round after round.
     */
    PRE_VOTE_LIVELOCK("pre-vote-livelock", true),
    /**
     * System mode only: the controllers' admin service answers a write once raft accepted its
     * records, before they commit (as a request that asks not to wait is answered); a failover
     * that loses them leaves an acknowledged write that never happened.
     */
    REPLY_BEFORE_COMMIT("reply-before-commit"),
    /**
     * System mode only: the controller keeps a fenced broker as the leader of the partitions it
     * leads (a mutation of {@code PartitionChanges}, which decides a fence's partition changes).
     */
    FENCED_LEADER_KEPT("fenced-leader-kept", true),
    /**
     * System mode only: a restarted broker's scan of its log dirs takes a partition directory
     * for the image's topic of that name without checking the topic id in its
     * {@code partition.metadata} (a mutation of {@code LogDirScan}), so the directory of a topic
     * deleted and re-created while the broker was down is kept as the new topic's.
     */
    STRAY_ID_UNCHECKED("stray-id-unchecked", true),
    /**
     * System mode only: the controller serves reads from the committed image before its
     * current one (a mutation of {@code QuorumController.committedImage()}).
     */
    STALE_READ("stale-read", true),
    /**
     * System mode only: a node that loads a snapshot replays it on top of the image it holds
     * instead of an empty one (a mutation of {@code MetadataLoader} and {@code ImageSnapshotLoader}),
     * applying every record that image already has a second time; production's replay validation
     * refuses the first one.
     */
    REPLAY_TWICE("replay-twice", true),
    /**
     * System mode only: a node that loads a snapshot keeps the topics of the image it held that
     * the snapshot lacks (a mutation of {@code MetadataLoader}), so a topic deleted while it was
     * behind survives on it. Every record it replays is valid: only the image comparison sees it.
     */
    SNAPSHOT_KEEPS_DELETED("snapshot-keeps-deleted", true),
    /**
     * System mode only: the active controller answers a write that appends nothing at once, even
     * when it decided on records of its own not yet committed (a mutation of {@code QuorumController}).
     * Each answer is one the reference model allows for a name several calls touch; only the
     * history as a whole, with the lost records sealed as never applied, is not linearizable.
     */
    REFUSAL_BEFORE_COMMIT("refusal-before-commit", true),
    /**
     * System mode only: the nodes' authorizer ignores a PREFIXED DENY (a mutation of
     * {@code MatchingAcls}, the decision's scan of the matching ACLs), so an ALLOW it should
     * override decides, or the default deny. Every answer is one the topic checks allow (a
     * denial or its absence changes nothing they judge); only the authorization check, which
     * asks Kafka's StandardAuthorizer on the same ACLs, sees it.
     */
    PREFIXED_DENY_IGNORED("prefixed-deny-ignored", true),
    /**
     * The raft core ignores directory ids (a mutation of {@code VoterSet.isVoter} and
     * {@code RaftRpcs.isAddressedTo}): a voter whose disk was wiped comes back with a new
     * directory id and an empty log, yet campaigns and votes as the voter it replaced
     * (KIP-853's disk amnesia), so a committed entry can lose its majority.
     */
    WIPED_VOTER_VOTES("wiped-voter-votes", true);

    private final String cliName;
    private final boolean mutation;

    BrokenVariant(String cliName) {
        this(cliName, false);
    }

    BrokenVariant(String cliName, boolean mutation) {
        this.cliName = cliName;
        this.mutation = mutation;
    }

    public String cliName() {
        return cliName;
    }

    /**
     * The mutation this variant runs: its name, that of the patch {@code src/mutations/NAME.patch}
     * (the variant's CLI name), or null if it breaks only the simulated world. The build refuses a
     * patch that names a missing file or no longer applies, and {@code MutationCatalogTest} that
     * the variants' mutations and the patches are the same set.
     */
    public String mutation() {
        return mutation ? cliName : null;
    }

    /** Whether this variant breaks the system layer (it needs {@code --system}) rather than the raft layer. */
    public boolean systemLayer() {
        return this == REPLY_BEFORE_COMMIT || this == FENCED_LEADER_KEPT || this == STRAY_ID_UNCHECKED
                || this == STALE_READ || this == REPLAY_TWICE || this == SNAPSHOT_KEEPS_DELETED
                || this == REFUSAL_BEFORE_COMMIT || this == PREFIXED_DENY_IGNORED;
    }

    public LogFaultMode logMode() {
        return switch (this) {
            case SKIP_TRUNCATION -> LogFaultMode.SKIP_TRUNCATION;
            case ACK_BEFORE_SYNC -> LogFaultMode.ACK_BEFORE_SYNC;
            default -> LogFaultMode.CORRECT;
        };
    }

    /** What the simulated transport does to an outbound message: nothing, except for pre-vote-bumps-epoch. */
    public RaftMessage rewriteOutbound(RaftMessage message) {
        if (this != PRE_VOTE_BUMPS_EPOCH || !(message instanceof RaftRequest request)
                || !(request.payload() instanceof VoteRequest vote)
                || !vote.getTopics(0).getPartitions(0).getPreVote()) {
            return message;
        }
        VotePartitionRequest partition = vote.getTopics(0).getPartitions(0);
        VoteRequest nextEpoch = vote.toBuilder().setTopics(0, vote.getTopics(0).toBuilder()
                .setPartitions(0, partition.toBuilder().setReplicaEpoch(partition.getReplicaEpoch() + 1))).build();
        return new RaftRequest(request.sourceId(), request.destinationId(), request.correlationId(), nextEpoch);
    }

    public boolean persistsVotes() {
        return this != VOTE_NOT_PERSISTED;
    }

    public static BrokenVariant byName(String name) {
        for (BrokenVariant variant : values()) {
            if (variant.cliName.equals(name)) {
                return variant;
            }
        }
        throw new IllegalArgumentException("unknown broken variant '" + name + "'");
    }
}

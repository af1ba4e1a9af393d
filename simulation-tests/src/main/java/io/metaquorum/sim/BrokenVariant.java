package io.metaquorum.sim;

import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.raft.core.quorum.EpochAdoptionRule;
import io.metaquorum.raft.core.quorum.HighWatermarkRule;
import io.metaquorum.raft.core.quorum.PreVoteRetryRule;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.sim.storage.LogFaultMode;

/**
 * Deliberately broken behaviours for the checker self-test, each switched on only inside
 * the simulation. Each must be caught by the invariants within a bounded number of seeds,
 * proving the checkers can fail. A broken behaviour of the simulated world (the disk, the
 * store, the transport) is a setting of that world; a broken rule of the raft core is its
 * production class replaced by a broken twin ({@link #replacedRule()}, run in a
 * {@link io.metaquorum.sim.mutation.MutantClassLoader}), so production code has no hook for it.
 */
public enum BrokenVariant {
    /** The production behaviour. */
    NONE("none"),
    /** A vote is answered but the quorum-state store does not persist it. */
    VOTE_NOT_PERSISTED("vote-not-persisted"),
    /** The high watermark advances over entries of older epochs (Raft's Figure 8): a broken rule. */
    HW_OVER_OLD_EPOCH("hw-over-old-epoch"),
    /** A follower's log ignores the truncation a diverging epoch asks for. */
    SKIP_TRUNCATION("skip-truncation"),
    /** The log reports writes durable before they are synced. */
    ACK_BEFORE_SYNC("ack-before-sync"),
    /**
     * A pre-vote moves its receivers to a new epoch. The core's pre-votes carry the sender's
     * current epoch (as Kafka's do), so adopting it alone changes nothing; raft.proto documents
     * them as carrying "the epoch it would campaign in", so this variant also sends them for
     * the next epoch, through the simulated transport, and adopts that epoch on receipt (a
     * broken {@link EpochAdoptionRule}).
     */
    PRE_VOTE_BUMPS_EPOCH("pre-vote-bumps-epoch"),
    /**
     * The pre-vote retry rules from before issue 9 (a {@link PreVoteRetryRule} of two falses): a
     * voter back from a lost pre-vote counts the leader it lost as heard from (a fresh fetch
     * deadline, refusing its peers' pre-votes), and a refused pre-voter does not ask again a
     * voter that starts pre-voting itself. The survivors of a silent leader can then refuse
     * each other round after round.
     */
    PRE_VOTE_LIVELOCK("pre-vote-livelock"),
    /**
     * System mode only: the controllers' admin service answers a write once raft accepted its
     * records, before they commit (as a request that asks not to wait is answered); a failover
     * that loses them leaves an acknowledged write that never happened.
     */
    REPLY_BEFORE_COMMIT("reply-before-commit"),
    /**
     * System mode only: the controller keeps a fenced broker as the leader of the partitions it
     * leads (a broken {@code io.metaquorum.metadata.controller.PartitionChanges}, which decides a
     * fence's partition changes; package-private, so named by {@link #FENCE_CHANGES}).
     */
    FENCED_LEADER_KEPT("fenced-leader-kept"),
    /**
     * System mode only: a restarted broker's scan of its log dirs takes a partition directory
     * for the image's topic of that name without checking the topic id in its
     * {@code partition.metadata} (a broken {@code io.metaquorum.broker.partition.LogDirScan},
     * package-private, so named by {@link #LOG_DIR_SCAN}), so the directory of a topic deleted
     * and re-created while the broker was down is kept as the new topic's.
     */
    STRAY_ID_UNCHECKED("stray-id-unchecked"),
    /**
     * System mode only: the controller serves reads from the committed image before its
     * current one (a broken {@link io.metaquorum.metadata.controller.QuorumController#committedImage()}).
     */
    STALE_READ("stale-read"),
    /**
     * System mode only: a node that loads a snapshot replays it on top of the image it holds
     * instead of an empty one (a broken {@link MetadataLoader}), applying every record that
     * image already has a second time; production's replay validation refuses the first one.
     */
    REPLAY_TWICE("replay-twice");

    /** The controller's class deciding the partition changes of a fence and an unfence. */
    static final String FENCE_CHANGES = "io.metaquorum.metadata.controller.PartitionChanges";
    /** The broker's scan deciding which partition directories found at start are live and which stray. */
    static final String LOG_DIR_SCAN = "io.metaquorum.broker.partition.LogDirScan";

    private final String cliName;

    BrokenVariant(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /**
     * The production class (of the raft core, the controller or the broker) this variant replaces by its broken twin (of the
     * same name, in {@code src/main/broken-rules}), or null if it breaks only the simulated world.
     */
    public Class<?> replacedRule() {
        return switch (this) {
            case HW_OVER_OLD_EPOCH -> HighWatermarkRule.class;
            case PRE_VOTE_BUMPS_EPOCH -> EpochAdoptionRule.class;
            case PRE_VOTE_LIVELOCK -> PreVoteRetryRule.class;
            case FENCED_LEADER_KEPT -> productionClass(FENCE_CHANGES);
            case STRAY_ID_UNCHECKED -> productionClass(LOG_DIR_SCAN);
            case STALE_READ -> QuorumController.class;
            case REPLAY_TWICE -> MetadataLoader.class;
            default -> null;
        };
    }

    /** A production class this package cannot name in code, as the world running this code links it. */
    private static Class<?> productionClass(String name) {
        try {
            return Class.forName(name, false, BrokenVariant.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no production class " + name + " on the class path", e);
        }
    }

    /** Whether this variant breaks the system layer (it needs {@code --system}) rather than the raft layer. */
    public boolean systemLayer() {
        return this == REPLY_BEFORE_COMMIT || this == FENCED_LEADER_KEPT || this == STRAY_ID_UNCHECKED
                || this == STALE_READ || this == REPLAY_TWICE;
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

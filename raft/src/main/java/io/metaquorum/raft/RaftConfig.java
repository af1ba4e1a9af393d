package io.metaquorum.raft;

import io.metaquorum.protocol.Uuid;
import java.util.List;
import java.util.Optional;

/**
 * What one replica needs to take part in the quorum.
 *
 * @param clusterId        every request carries it; a mismatch is refused with INCONSISTENT_CLUSTER_ID
 * @param localId          this replica's node id
 * @param voterIds         the ids of {@code controller.quorum.voters}, sorted ascending: where an
 *                         observer looks for the leader, and the voter set when there is no other
 * @param localDirectoryId this replica's directory id from meta.properties; {@link TopicIds#ZERO} if none
 * @param initialVoters    the voter set {@code mq-storage format --initial-controllers} wrote
 *                         (empty set: {@code --no-initial-controllers}); absent for a directory
 *                         formatted without either, which runs on the static voters (kraft.version 0)
 */
public record RaftConfig(String clusterId, int localId, List<Integer> voterIds, RaftTimeouts timeouts,
                         RaftLimits limits, Uuid localDirectoryId, Optional<VoterSet> initialVoters) {
    public RaftConfig {
        voterIds = voterIds.stream().sorted().distinct().toList();
    }

    /** A replica of the static voter set, without a directory id (kraft.version 0). */
    public RaftConfig(String clusterId, int localId, List<Integer> voterIds, RaftTimeouts timeouts,
                      RaftLimits limits) {
        this(clusterId, localId, voterIds, timeouts, limits, TopicIds.ZERO, Optional.empty());
    }

    public ReplicaKey localKey() {
        return new ReplicaKey(localId, localDirectoryId);
    }

    /** KIP-853's kraft.version: 1 when the voter set is kept in the log, 0 for the static voters. */
    public int kraftVersion() {
        return initialVoters.isPresent() ? 1 : 0;
    }

    /** The voter set until the log names one: the formatted initial voters, else the static ones. */
    public VoterSet bootstrapVoters() {
        return initialVoters.orElseGet(() -> VoterSet.ofIds(voterIds));
    }

    /** Throws {@link IllegalArgumentException} naming the first bad value. */
    public RaftConfig validate() {
        if (clusterId == null || clusterId.isBlank()) {
            throw new IllegalArgumentException("cluster id must be set");
        }
        if (voterIds.isEmpty()) {
            throw new IllegalArgumentException("controller.quorum.voters must name at least one voter");
        }
        if (localId < 0 || voterIds.stream().anyMatch(id -> id < 0)) {
            throw new IllegalArgumentException("node ids must be >= 0");
        }
        timeouts.validate();
        limits.validate();
        return this;
    }
}

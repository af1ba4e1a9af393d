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
 * @param localListeners   where this replica listens now; empty when unknown. A voter whose
 *                         endpoints in the voter set differ asks the leader to update them
 *                         (KIP-853 UpdateRaftVoter), so a controller moved to another port or
 *                         host stays reachable without being removed and added again
 */
public record RaftConfig(String clusterId, int localId, List<Integer> voterIds, RaftTimeouts timeouts,
                         RaftLimits limits, Uuid localDirectoryId, Optional<VoterSet> initialVoters,
                         List<VoterSet.Endpoint> localListeners) {
    public RaftConfig {
        voterIds = voterIds.stream().sorted().distinct().toList();
        localListeners = List.copyOf(localListeners);
    }

    /** A replica that does not know where it listens: it never updates its endpoints. */
    public RaftConfig(String clusterId, int localId, List<Integer> voterIds, RaftTimeouts timeouts,
                      RaftLimits limits, Uuid localDirectoryId, Optional<VoterSet> initialVoters) {
        this(clusterId, localId, voterIds, timeouts, limits, localDirectoryId, initialVoters, List.of());
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

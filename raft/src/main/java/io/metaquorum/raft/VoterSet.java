package io.metaquorum.raft;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.protocol.VotersRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The voters of the quorum at one point of the log (KIP-853), immutable. A voter is a
 * {@link ReplicaKey}; a replica counts as that voter when its node id is listed and its
 * directory id is the listed one, or the listed voter has none (the static
 * {@code controller.quorum.voters}, kraft.version 0, where a reformatted node cannot be
 * told apart). Everything else is an observer.
 *
 * <p>Invariant: at most one voter per node id.
 */
public final class VoterSet {
    public static final VoterSet EMPTY = new VoterSet(new TreeMap<>());

    /** Where a voter listens. */
    public record Endpoint(String host, int port) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    public record Voter(ReplicaKey key, List<Endpoint> endpoints) {
        public Voter {
            endpoints = List.copyOf(endpoints);
        }
    }

    private final TreeMap<Integer, Voter> voters;

    private VoterSet(TreeMap<Integer, Voter> voters) {
        this.voters = voters;
    }

    /** The voters of the static configuration: ids only. */
    public static VoterSet ofIds(Collection<Integer> ids) {
        List<Voter> voters = new ArrayList<>();
        for (int id : ids) {
            voters.add(new Voter(ReplicaKey.of(id), List.of()));
        }
        return of(voters);
    }

    /** Throws {@link IllegalArgumentException} if a node id is listed twice. */
    public static VoterSet of(List<Voter> list) {
        TreeMap<Integer, Voter> voters = new TreeMap<>();
        for (Voter voter : list) {
            if (voters.put(voter.key().id(), voter) != null) {
                throw new IllegalArgumentException("voter " + voter.key().id() + " is listed twice");
            }
        }
        return new VoterSet(voters);
    }

    public static VoterSet fromRecord(VotersRecord record) {
        List<Voter> list = new ArrayList<>();
        for (VotersRecord.Voter voter : record.getVotersList()) {
            List<Endpoint> endpoints = voter.getEndpointsList().stream()
                    .map(e -> new Endpoint(e.getHost(), e.getPort())).toList();
            Uuid directoryId = voter.hasVoterDirectoryId() ? voter.getVoterDirectoryId() : TopicIds.ZERO;
            list.add(new Voter(new ReplicaKey(voter.getVoterId(), directoryId), endpoints));
        }
        return of(list);
    }

    public VotersRecord toRecord() {
        VotersRecord.Builder record = VotersRecord.newBuilder().setVersion(0);
        for (Voter voter : voters.values()) {
            VotersRecord.Voter.Builder entry = VotersRecord.Voter.newBuilder().setVoterId(voter.key().id())
                    .setVoterDirectoryId(voter.key().directoryId());
            for (Endpoint endpoint : voter.endpoints()) {
                entry.addEndpoints(VotersRecord.Endpoint.newBuilder().setName("CONTROLLER")
                        .setHost(endpoint.host()).setPort(endpoint.port()));
            }
            record.addVoters(entry);
        }
        return record.build();
    }

    /** The voters' node ids, ascending. */
    public List<Integer> ids() {
        return List.copyOf(voters.keySet());
    }

    public List<Voter> voters() {
        return List.copyOf(voters.values());
    }

    public boolean isEmpty() {
        return voters.isEmpty();
    }

    public int size() {
        return voters.size();
    }

    public int majority() {
        return voters.size() / 2 + 1;
    }

    /** Whether some voter has node id {@code id}, whatever its directory. */
    public boolean hasId(int id) {
        return voters.containsKey(id);
    }

    public Optional<Voter> voter(int id) {
        return Optional.ofNullable(voters.get(id));
    }

    /** The directory id listed for node {@code id}, or {@link TopicIds#ZERO} (none, or not a voter). */
    public Uuid directoryIdOf(int id) {
        Voter voter = voters.get(id);
        return voter == null ? TopicIds.ZERO : voter.key().directoryId();
    }

    /** Whether {@code replica} is one of these voters: same id, and the listed directory id or none listed. */
    public boolean isVoter(ReplicaKey replica) {
        Voter voter = voters.get(replica.id());
        return voter != null && (!voter.key().hasDirectoryId()
                || voter.key().directoryId().equals(replica.directoryId()));
    }

    /** Whether any voter carries a directory id: false for the static configuration. */
    public boolean hasDirectoryIds() {
        return voters.values().stream().anyMatch(v -> v.key().hasDirectoryId());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VoterSet set && set.voters.equals(voters);
    }

    @Override
    public int hashCode() {
        return voters.hashCode();
    }

    /** {@code [1:<dir>@host:port, 2, ...]}. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        for (Voter voter : voters.values()) {
            parts.add(voter.key() + (voter.endpoints().isEmpty() ? "" : "@" + voter.endpoints().get(0)));
        }
        return parts.toString();
    }
}

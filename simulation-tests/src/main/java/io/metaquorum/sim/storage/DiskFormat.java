package io.metaquorum.sim.storage;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.util.Optional;

/**
 * What {@code mq-storage format} wrote on a simulated disk: its directory id and the initial
 * voters ({@code --initial-controllers}; an empty set for {@code --no-initial-controllers}),
 * or neither (kraft.version 0: the static voters, no directory ids).
 */
public record DiskFormat(Uuid directoryId, Optional<VoterSet> initialVoters) {
    /** A disk of the static voter set (kraft.version 0). */
    public static final DiskFormat STATIC = new DiskFormat(TopicIds.ZERO, Optional.empty());

    public boolean hasDirectoryId() {
        return !TopicIds.ZERO.equals(directoryId);
    }
}

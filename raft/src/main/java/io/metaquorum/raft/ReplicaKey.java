package io.metaquorum.raft;

import io.metaquorum.protocol.Uuid;

/**
 * A replica as KIP-853 names it: its node id and the directory id {@code mq-storage format}
 * wrote into its metadata directory. A wiped and reformatted replica keeps its node id but
 * gets a new directory id, so it is a different replica: it has neither the log nor the
 * votes of the one that was.
 *
 * @param directoryId {@link TopicIds#ZERO} when the replica has none: a voter of the static
 *                    {@code controller.quorum.voters} (kraft.version 0), or a node whose
 *                    meta.properties predates directory ids
 */
public record ReplicaKey(int id, Uuid directoryId) {
    public ReplicaKey {
        if (directoryId == null) {
            throw new IllegalArgumentException("replica " + id + ": a missing directory id is TopicIds.ZERO, not null");
        }
    }

    /** A replica known by its node id only. */
    public static ReplicaKey of(int id) {
        return new ReplicaKey(id, TopicIds.ZERO);
    }

    public boolean hasDirectoryId() {
        return !TopicIds.ZERO.equals(directoryId);
    }

    /** {@code 2} or {@code 2:<22-character directory id>}. */
    @Override
    public String toString() {
        return hasDirectoryId() ? id + ":" + TopicIds.toBase64(directoryId) : Integer.toString(id);
    }

    public io.metaquorum.protocol.ReplicaKey toMessage() {
        return io.metaquorum.protocol.ReplicaKey.newBuilder().setReplicaId(id).setDirectoryId(directoryId).build();
    }

    public static ReplicaKey fromMessage(io.metaquorum.protocol.ReplicaKey message) {
        return new ReplicaKey(message.getReplicaId(), message.hasDirectoryId() ? message.getDirectoryId() : TopicIds.ZERO);
    }
}

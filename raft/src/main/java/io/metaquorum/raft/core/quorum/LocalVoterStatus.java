package io.metaquorum.raft.core.quorum;

import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says once, when it becomes true, that the active voter set names this node's id with
 * another directory id: a wiped and reformatted voter (KIP-853's disk amnesia), which
 * stays an observer until it is added back. Also says once at start-up when the voter set
 * has no directory ids at all, so that such a voter would not be told apart.
 */
public final class LocalVoterStatus {
    private static final Logger LOG = LoggerFactory.getLogger(LocalVoterStatus.class);

    private final ReplicaKey local;
    private VoterSet lastMismatch;

    public LocalVoterStatus(ReplicaKey local) {
        this.local = local;
    }

    /** At start-up: the voter set in force and whether it may ever carry directory ids (kraft.version 1). */
    public void onStart(VoterSet active, int kraftVersion) {
        if (kraftVersion == 0 && !active.hasDirectoryIds() && active.hasId(local.id())) {
            LOG.info("[node {}] the voter set comes from controller.quorum.voters alone, without directory ids: "
                    + "a wiped and reformatted voter would vote again with an empty log (format with "
                    + "--initial-controllers to prevent it)", local.id());
        }
        onChange(active);
    }

    public void onChange(VoterSet active) {
        boolean mismatch = active.hasId(local.id()) && !active.isVoter(local);
        if (!mismatch) {
            lastMismatch = null;
            return;
        }
        if (active.directoryIdOf(local.id()).equals(lastMismatch == null ? null
                : lastMismatch.directoryIdOf(local.id()))) {
            return;
        }
        lastMismatch = active;
        LOG.warn("[node {}] node {} has directory id {} but the voter set names {} with directory id {}: "
                        + "this replica is an observer until it is added back as a voter", local.id(), local.id(),
                local.hasDirectoryId() ? TopicIds.toBase64(local.directoryId()) : "(none)", local.id(),
                TopicIds.toBase64(active.directoryIdOf(local.id())));
    }
}

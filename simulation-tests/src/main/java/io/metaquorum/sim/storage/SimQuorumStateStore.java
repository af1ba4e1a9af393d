package io.metaquorum.sim.storage;

import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.QuorumStateStore;
import java.util.Optional;

/**
 * The quorum-state port over a {@link SimDisk}: a write is durable when it returns (the
 * production store writes a temp file, syncs and renames), unless the disk fails it.
 *
 * <p>With {@code persistVotes} off (the checker self-test's "grant a vote without persisting
 * it"), the epoch and leader reach the disk but the vote does not: the process remembers
 * it, and a restarted process can vote again in the same epoch.
 */
public final class SimQuorumStateStore implements QuorumStateStore {
    private final SimDisk disk;
    private final boolean persistVotes;
    /** What this process wrote last; null until it writes. */
    private ElectionState written;

    public SimQuorumStateStore(SimDisk disk, boolean persistVotes) {
        this.disk = disk;
        this.persistVotes = persistVotes;
    }

    @Override
    public Optional<ElectionState> read() {
        return Optional.ofNullable(written != null ? written : disk.electionState());
    }

    @Override
    public void write(ElectionState state) {
        disk.maybeFailWrite("quorum-state", -1);
        written = state;
        disk.writeElectionState(persistVotes || !state.hasVoted() ? state
                : new ElectionState(state.epoch(), state.leaderId(), ElectionState.NONE));
    }
}

package io.metaquorum.raft.storage;

import java.util.Objects;
import java.util.Optional;

/**
 * A {@link QuorumStateStore} held in memory: every write is "durable" at once. Used by the
 * raft core's unit tests and by the simulator, which keeps the object across a simulated
 * restart because election state always survives a crash.
 */
public final class InMemoryQuorumStateStore implements QuorumStateStore {
    /** Invariant: null until the first write. */
    private ElectionState state;

    @Override
    public Optional<ElectionState> read() {
        return Optional.ofNullable(state);
    }

    @Override
    public void write(ElectionState newState) {
        state = Objects.requireNonNull(newState, "election state");
    }
}

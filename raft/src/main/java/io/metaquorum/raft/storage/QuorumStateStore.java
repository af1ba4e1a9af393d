package io.metaquorum.raft.storage;

import java.util.Optional;

/**
 * Durable election state. {@link #write} returns only once the state is durable: a vote is
 * persisted before it is answered (docs/architecture.md §3). Failure throws {@link StorageException}.
 */
public interface QuorumStateStore {
    Optional<ElectionState> read();

    void write(ElectionState state);
}

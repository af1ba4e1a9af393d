package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.storage.ElectionState;

/**
 * The election state a voter acts on is durable (docs/architecture.md §3: a vote is persisted before
 * it is answered, and an epoch before it is entered): after every event, a running voter's
 * epoch is the one on its disk, and so is its vote if it has cast one. A crash at any moment
 * must not let it forget a promise it has already made.
 */
public final class ElectionStateCheck {
    public void observe(RaftStatus status, ElectionState durable) {
        if (status.epoch() == 0 && status.votedId() < 0) {
            return;
        }
        if (durable == null || durable.epoch() != status.epoch()) {
            throw new CheckFailure("election-state-durable", "voter " + status.nodeId() + " is in epoch "
                    + status.epoch() + " but its disk holds " + (durable == null ? "no election state" : durable));
        }
        if (status.votedId() >= 0 && durable.votedId() != status.votedId()) {
            throw new CheckFailure("election-state-durable", "voter " + status.nodeId() + " voted for "
                    + status.votedId() + " in epoch " + status.epoch() + " but its disk holds " + durable);
        }
    }
}

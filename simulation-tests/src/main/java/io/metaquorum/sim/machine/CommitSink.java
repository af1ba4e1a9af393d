package io.metaquorum.sim.machine;

/** Hears of every client record a node's state machine applies. */
@FunctionalInterface
public interface CommitSink {
    CommitSink NONE = (nodeId, offset, appendId) -> { };

    void onClientRecordApplied(int nodeId, long offset, long appendId);
}

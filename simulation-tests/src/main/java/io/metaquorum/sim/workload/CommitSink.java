package io.metaquorum.sim.workload;

/** Hears of every client record a node's state machine applies. */
@FunctionalInterface
public interface CommitSink {
    CommitSink NONE = (nodeId, offset, appendId) -> { };

    void onClientRecordApplied(int nodeId, long offset, long appendId);
}

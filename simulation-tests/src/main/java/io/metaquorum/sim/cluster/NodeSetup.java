package io.metaquorum.sim.cluster;

import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.sim.storage.DiskFormat;
import io.metaquorum.sim.storage.LogFaultMode;
import io.metaquorum.sim.storage.LogObserver;
import io.metaquorum.sim.machine.CommitSink;
import io.metaquorum.sim.machine.StateMachineListener;
import io.metaquorum.sim.machine.StateMachineModel;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What every node of one simulated cluster is built from: the production configuration,
 * the storage behaviour (broken only in the checker self-test), the state
 * machine, and the hooks the checkers listen on.
 *
 * @param snapshotIntervalRecords a node snapshots its state machine every this many applied
 *                                records; 0 never
 * @param writebackIntervalMs     the OS writeback period of {@link LogFaultMode#ACK_BEFORE_SYNC}
 * @param outboundRewrite         what the simulated transport does to each outbound message:
 *                                the identity, except in the checker self-test
 * @param roles                   what each node runs beside its checked state machine (system
 *                                mode: a controller or a broker); null in raft-only mode
 */
public record NodeSetup(String clusterId, List<Integer> voterIds, RaftTimeouts timeouts, RaftLimits limits,
                        LogFaultMode logMode, boolean persistVotes, StateMachineModel model,
                        int snapshotIntervalRecords, int writebackIntervalMs, LogObserver logObserver,
                        CommitSink commitSink, UnaryOperator<RaftMessage> outboundRewrite,
                        NodeRoles roles) {
    /**
     * The production configuration of node {@code nodeId} on a disk formatted as {@code format}:
     * kraft.version 1 (directory ids, the voter set in the log) when the format wrote initial
     * voters, else the static voters of kraft.version 0.
     */
    public RaftConfig configFor(int nodeId, DiskFormat format) {
        return new RaftConfig(clusterId, nodeId, voterIds, timeouts, limits, format.directoryId(),
                format.initialVoters());
    }

    /**
     * The state machine (the {@link io.metaquorum.raft.RaftListener}) a new incarnation of
     * node {@code nodeId} gets: this is where a node's listener is decided.
     */
    public StateMachineListener listenerFor(int nodeId) {
        return new StateMachineListener(nodeId, model, commitSink);
    }

    /** The role a new incarnation of {@code node} runs beside its state machine, or null (raft-only mode). */
    public NodeRole roleFor(SimNode node) {
        return roles == null ? null : roles.create(node);
    }
}

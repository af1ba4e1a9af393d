package io.metaquorum.sim.system.node;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.sim.system.invariant.ReplayedLog;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Raft stood in by a script: one log, a leader chosen by the test, every append committed at
 * the next {@link #commit}, committed batches delivered to every node's listener in order (a
 * restarted node's new listener from the start), each also replayed into the checkers' model.
 */
final class ScriptedRaft implements RaftPort {
    private final List<RecordBatch> log = new ArrayList<>();
    private final TreeMap<Integer, RaftListener> listeners = new TreeMap<>();
    private final TreeMap<Integer, Integer> delivered = new TreeMap<>();
    private final ReplayedLog replayed;
    private int committed;
    private int epoch;
    private int leader = -1;

    ScriptedRaft(ReplayedLog replayed) {
        this.replayed = replayed;
    }

    /** Adds a node, or replaces a restarted one: its listener gets the committed log from the start. */
    void attach(int nodeId, RaftListener listener) {
        listeners.put(nodeId, listener);
        delivered.put(nodeId, 0);
        listener.handleLeaderChange(leader < 0 ? LeaderAndEpoch.noLeader(epoch) : new LeaderAndEpoch(leader, epoch));
    }

    /** The port a node's state machine appends through: only the leader's appends land. */
    RaftPort portOf(int nodeId) {
        return new RaftPort() {
            @Override
            public AppendResult append(int appendEpoch, List<ByteString> records, long nowMs) {
                if (nodeId != leader) {
                    return AppendResult.refused(AppendResult.Status.NOT_LEADER, epoch);
                }
                return ScriptedRaft.this.append(appendEpoch, records, nowMs);
            }

            @Override
            public AppendResult appendControl(int appendEpoch, List<ByteString> records, long nowMs) {
                if (nodeId != leader) {
                    return AppendResult.refused(AppendResult.Status.NOT_LEADER, epoch);
                }
                return ScriptedRaft.this.appendControl(appendEpoch, records, nowMs);
            }

            @Override
            public void resign(int resignEpoch, long nowMs) {
                if (nodeId == leader) {
                    ScriptedRaft.this.resign(resignEpoch, nowMs);
                }
            }

            @Override
            public boolean registerSnapshot(SnapshotTask task) {
                return ScriptedRaft.this.registerSnapshot(task);
            }
        };
    }

    @Override
    public AppendResult append(int appendEpoch, List<ByteString> records, long nowMs) {
        return appendBatch(appendEpoch, records, false, nowMs);
    }

    @Override
    public AppendResult appendControl(int appendEpoch, List<ByteString> records, long nowMs) {
        return appendBatch(appendEpoch, records, true, nowMs);
    }

    private AppendResult appendBatch(int appendEpoch, List<ByteString> records, boolean control, long nowMs) {
        if (appendEpoch != epoch) {
            return AppendResult.refused(AppendResult.Status.WRONG_EPOCH, epoch);
        }
        long base = endOffset();
        log.add(RecordBatches.build(base, epoch, nowMs, control, records));
        return AppendResult.accepted(base + records.size() - 1, epoch);
    }

    @Override
    public void resign(int resignEpoch, long nowMs) {
        if (resignEpoch == epoch && leader >= 0) {
            listeners.get(leader).handleResign(epoch);
            leader = -1;
            listeners.values().forEach(l -> l.handleLeaderChange(LeaderAndEpoch.noLeader(epoch)));
        }
    }

    /** The script keeps its whole log: a snapshot is always discarded. */
    @Override
    public boolean registerSnapshot(SnapshotTask task) {
        return false;
    }

    /** {@code nodeId} leads the next epoch: uncommitted records are dropped, its leader-change record commits. */
    void elect(int nodeId, long nowMs) {
        while (log.size() > committed) {
            log.remove(log.size() - 1);
        }
        epoch++;
        ControlRecord control = ControlRecord.newBuilder().setLeaderChange(LeaderChangeRecord.newBuilder()
                .setLeaderId(nodeId)).build();
        long offset = endOffset();
        log.add(RecordBatches.build(offset, epoch, nowMs, true, List.of(control.toByteString())));
        commit();
        leader = nodeId;
        listeners.values().forEach(l -> l.handleLeaderChange(new LeaderAndEpoch(nodeId, epoch)));
        listeners.get(nodeId).handleBecomeLeader(epoch, offset);
    }

    /** Commits everything appended and delivers it. */
    void commit() {
        for (int i = committed; i < log.size(); i++) {
            replayed.append(log.get(i));
        }
        committed = log.size();
        for (var entry : listeners.entrySet()) {
            int from = delivered.get(entry.getKey());
            if (from < committed) {
                entry.getValue().handleCommit(List.copyOf(log.subList(from, committed)));
                delivered.put(entry.getKey(), committed);
            }
        }
    }

    int epoch() {
        return epoch;
    }

    private long endOffset() {
        return log.isEmpty() ? 0 : RecordBatches.endOffset(log.get(log.size() - 1));
    }
}

package io.metaquorum.server.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.node.controller.ControllerRaft;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.server.metrics.ControllerLoopMetrics;
import java.util.List;
import java.util.function.Supplier;

/**
 * The controller's raft port in the server: the node's thread-safe {@link RaftNode}, once
 * built; each append counted (its records, once per append) when metrics are on.
 */
final class RaftNodeControllerRaft implements ControllerRaft {
    private final Supplier<RaftNode> raft;
    private final ControllerLoopMetrics metrics;

    /** {@code raft} supplies the node once it is built (the node needs the state machine first). */
    RaftNodeControllerRaft(Supplier<RaftNode> raft, ControllerLoopMetrics metrics) {
        this.raft = raft;
        this.metrics = metrics;
    }

    @Override
    public void append(int epoch, List<ByteString> records, AppendOutcome outcome) {
        metrics.onAppend(records.size());
        raft.get().append(epoch, records).whenComplete(outcome::done);
    }

    @Override
    public void appendControl(int epoch, List<ByteString> records, AppendOutcome outcome) {
        raft.get().appendControl(epoch, records).whenComplete(outcome::done);
    }

    @Override
    public void resign(int epoch) {
        raft.get().resign(epoch);
    }
}

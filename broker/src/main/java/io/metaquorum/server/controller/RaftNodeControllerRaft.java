package io.metaquorum.server.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.node.controller.ControllerRaft;
import io.metaquorum.raft.RaftNode;
import java.util.List;
import java.util.function.Supplier;

/** The controller's raft port in the server: the node's thread-safe {@link RaftNode}, once built. */
final class RaftNodeControllerRaft implements ControllerRaft {
    private final Supplier<RaftNode> raft;

    /** {@code raft} supplies the node once it is built (the node needs the state machine first). */
    RaftNodeControllerRaft(Supplier<RaftNode> raft) {
        this.raft = raft;
    }

    @Override
    public void append(int epoch, List<ByteString> records, AppendOutcome outcome) {
        raft.get().append(epoch, records).whenComplete(outcome::done);
    }

    @Override
    public void resign(int epoch) {
        raft.get().resign(epoch);
    }
}

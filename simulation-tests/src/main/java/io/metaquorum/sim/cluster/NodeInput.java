package io.metaquorum.sim.cluster;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.message.RaftMessage;
import java.util.List;

/** What reaches a node's driver between two polls, in arrival order. */
sealed interface NodeInput {
    /** A message or transport failure from the network. */
    record Inbound(RaftMessage message) implements NodeInput {
    }

    /** A client append for {@code epoch}, each record with its append id. */
    record ClientAppend(int epoch, List<ByteString> records, long[] appendIds) implements NodeInput {
    }

    /** An operator asks the leader to hand off leadership. */
    record Resign() implements NodeInput {
    }

    /** An operator stops the node gracefully. */
    record Shutdown() implements NodeInput {
    }
}

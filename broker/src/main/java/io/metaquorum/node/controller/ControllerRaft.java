package io.metaquorum.node.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.AppendResult;
import java.util.List;

/**
 * What the controller asks of its node's raft replica. The server's is the replica's
 * thread-safe facade; a single-threaded host's calls the core between its passes.
 */
public interface ControllerRaft {
    /** How an append ended: a result, or the failure that kept it from being tried. */
    @FunctionalInterface
    interface AppendOutcome {
        void done(AppendResult result, Throwable failure);
    }

    /**
     * One atomic append pinned to {@code epoch}; {@code outcome} is told exactly once, now or
     * later, on any thread.
     */
    void append(int epoch, List<ByteString> records, AppendOutcome outcome);

    /** Appends the control records raft handed the controller for {@code epoch}; as {@link #append}. */
    void appendControl(int epoch, List<ByteString> records, AppendOutcome outcome);

    /** Resigns {@code epoch} if the replica still leads it. */
    void resign(int epoch);
}

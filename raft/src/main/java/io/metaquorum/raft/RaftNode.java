package io.metaquorum.raft;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.core.AppendResult;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.core.RaftStatus;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One replica as the rest of a process sees it: a thread-safe facade over the single
 * driver thread that owns the {@link RaftCore}. Everything here may be called from any
 * thread; the {@link RaftListener} is called on the driver thread.
 */
public interface RaftNode extends AutoCloseable {
    /** Starts the driver thread and the transport. */
    void start();

    /** Appends records in the current epoch if this replica leads; completes once queued. */
    CompletableFuture<AppendResult> append(List<ByteString> records);

    /** Runs a task on the driver thread between two polls (snapshots, listener follow-ups). */
    void execute(Consumer<RaftCore> task);

    /** The latest status the driver published; never blocks. */
    RaftStatus status();

    /**
     * Graceful stop: a leader resigns (EndQuorumEpoch to the most caught-up voters) and
     * waits up to {@code timeoutMs} for it to be delivered; then the driver and transport stop.
     */
    void shutdown(long timeoutMs);

    /** Stops at once without resigning. */
    @Override
    void close();
}

package io.metaquorum.raft;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.storage.SnapshotWriter;
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

    /**
     * One atomic append pinned to {@code epoch}, the epoch the caller decided in (as given to
     * {@link RaftListener#handleBecomeLeader}): all the records go into one batch, so they
     * commit together or not at all, or none is appended and the result says why
     * ({@link AppendResult.Status}: not leader, another epoch, too large for one batch, queue
     * full). Completes once queued, with the offset the last record will have. Accepted
     * records are lost with the leadership if it ends before they are written; the state
     * machine then hears {@link RaftListener#handleResign}.
     */
    CompletableFuture<AppendResult> append(int epoch, List<ByteString> records);

    /**
     * {@link #append(int, List)} in whatever epoch this replica leads when the driver takes
     * the append: for callers that decide nothing from replicated state (benchmarks, tools).
     */
    CompletableFuture<AppendResult> append(List<ByteString> records);

    /**
     * Appends the control records raft handed the state machine through
     * {@link RaftListener#handleControlRecords} for {@code epoch}, as one control batch behind
     * the state machine's earlier appends. Refused (NOT_LEADER) when the epoch ended or raft no
     * longer waits for these records.
     */
    CompletableFuture<AppendResult> appendControl(int epoch, List<ByteString> records);

    /**
     * Resigns {@code epoch} (EndQuorumEpoch to the most caught-up voters) if this replica still
     * leads it when the driver takes the request; a later epoch is left alone.
     */
    void resign(int epoch);

    /**
     * Hands a snapshot the state machine wrote to the replica: on the driver thread it becomes
     * the log's latest snapshot ({@code registered} told true) or is discarded because the log
     * already starts at or after it (false). Throws {@link java.util.concurrent.RejectedExecutionException}
     * when the driver stopped or its task queue is full; the caller writes one again later.
     */
    void registerSnapshot(SnapshotWriter writer, Consumer<Boolean> registered);

    /** The latest status the driver published; never blocks. */
    RaftStatus status();

    /**
     * The voter set in force as the driver last saw it (the latest VotersRecord in the log, else
     * the bootstrap set), with each voter's endpoints; never blocks.
     */
    VoterSet voters();

    /**
     * Graceful stop: a leader resigns (EndQuorumEpoch to the most caught-up voters) and
     * waits up to {@code timeoutMs} for it to be delivered; then the driver and transport stop.
     */
    void shutdown(long timeoutMs);

    /** Stops at once without resigning. */
    @Override
    void close();
}

package io.metaquorum.raft.core;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.QuorumStateStore;
import io.metaquorum.raft.storage.RaftLog;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * PUBLIC SURFACE ONLY (being implemented). The deterministic consensus core.
 *
 * <p>Driver contract (production driver and simulator alike), one thread:
 * <pre>
 *   for each inbound message: core.handle(msg, now)
 *   long deadline = core.poll(now);          // timers, append queued records, commit, build messages
 *   transport.send(core.takeOutbound())      // may go before the flush: nothing here claims durability
 *   if (log.hasUnflushed()) {                // one sync per drained batch (group commit)
 *       log.flush();
 *       deadline = core.poll(now);           // now counts the flushed records, may commit
 *       transport.send(core.takeOutbound());
 *   }
 *   wait until deadline or the next inbound message
 * </pre>
 */
public final class RaftCore {
    public RaftCore(RaftConfig config, RaftLog log, QuorumStateStore stateStore, RandomGenerator random,
                    RaftListener listener, QuorumRules rules, long nowMs) {
        throw new UnsupportedOperationException("in progress");
    }

    public RaftCore(RaftConfig config, RaftLog log, QuorumStateStore stateStore, RandomGenerator random,
                    RaftListener listener, long nowMs) {
        this(config, log, stateStore, random, listener, QuorumRules.STANDARD, nowMs);
    }

    /** Takes one inbound request, response or failure. */
    public void handle(RaftMessage message, long nowMs) {
        throw new UnsupportedOperationException("in progress");
    }

    /** Runs expired timers, appends queued records, commits; returns the next deadline (absolute ms). */
    public long poll(long nowMs) {
        throw new UnsupportedOperationException("in progress");
    }

    /** The messages produced since the last call, in order. */
    public List<RaftMessage> takeOutbound() {
        throw new UnsupportedOperationException("in progress");
    }

    /** Queues records for the next batch if this replica leads {@code epoch}. */
    public AppendResult append(int epoch, List<ByteString> records, long nowMs) {
        throw new UnsupportedOperationException("in progress");
    }

    /** Graceful resignation: EndQuorumEpoch to the voters, most caught up first. */
    public void resign(long nowMs) {
        throw new UnsupportedOperationException("in progress");
    }

    /**
     * Begins a graceful shutdown: a leader resigns first. {@link #isShutdownComplete} turns
     * true once the successor is told (or the request timeout passes).
     */
    public void beginShutdown(long nowMs) {
        throw new UnsupportedOperationException("in progress");
    }

    public boolean isShutdownComplete(long nowMs) {
        throw new UnsupportedOperationException("in progress");
    }

    /**
     * Stores a snapshot of the state machine at {@code id} (an offset it has applied, at or
     * below the high watermark) and moves the log start to it.
     */
    public void createSnapshot(OffsetAndEpoch id, byte[] content) {
        throw new UnsupportedOperationException("in progress");
    }

    /** The epoch of the record just below {@code offset}, for naming a snapshot. */
    public OffsetAndEpoch snapshotIdAt(long offset) {
        throw new UnsupportedOperationException("in progress");
    }

    public RaftStatus status() {
        throw new UnsupportedOperationException("in progress");
    }
}

package io.metaquorum.server.controller;

import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.controller.AppendSink;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.core.AppendResult;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's appends, made through the raft node and reported back on the
 * controller's thread: accepted at the offset the controller expected, or refused (a
 * refusal, or an offset other than expected, ends the controller's leadership).
 */
public final class RaftAppendSink implements AppendSink {
    private static final Logger LOG = LoggerFactory.getLogger(RaftAppendSink.class);

    private final String logPrefix;
    private final Supplier<RaftNode> raft;
    private final Time time;
    private ControllerEventLoop loop;

    /** {@code raft} is the node once built: the node needs the controller as its state machine first. */
    public RaftAppendSink(int nodeId, Supplier<RaftNode> raft, Time time) {
        this.logPrefix = "[node " + nodeId + "] ";
        this.raft = raft;
        this.time = time;
    }

    /** Where outcomes go; set once, before the controller first appends. */
    public void reportTo(ControllerEventLoop eventLoop) {
        this.loop = eventLoop;
    }

    @Override
    public void append(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
        raft.get().append(epoch, MetadataRecordCodec.encodeAll(records)).whenComplete((result, error) ->
                loop.raftEvent((controller, nowMs) -> {
                    if (error == null && result.accepted() && result.lastOffset() == expectedLastOffset) {
                        controller.handleAppendAccepted(epoch, expectedLastOffset);
                    } else {
                        LOG.warn("{}append of {} records in epoch {} not made as expected (ending at {}): {}",
                                logPrefix, records.size(), epoch, expectedLastOffset, describe(result, error));
                        controller.handleAppendRefused(epoch);
                    }
                }));
    }

    private static String describe(AppendResult result, Throwable error) {
        return error != null ? error.toString() : result.toString();
    }

    @Override
    public void resign(int epoch) {
        raft.get().execute(core -> {
            if (core.status().isLeader() && core.status().epoch() == epoch) {
                core.resign(time.milliseconds());
            }
        });
    }
}

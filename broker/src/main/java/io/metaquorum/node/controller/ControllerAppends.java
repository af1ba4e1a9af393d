package io.metaquorum.node.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.controller.AppendSink;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.node.trace.AppendTraces;
import io.metaquorum.node.trace.RequestTrace;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.AppendResult;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's appends, made through its node's raft and reported back as raft events,
 * so the controller hears each outcome on its own thread in raft's order: accepted at the
 * offset the controller expected, or refused (a refusal, or an offset other than expected,
 * ends the controller's leadership).
 */
public final class ControllerAppends implements AppendSink {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerAppends.class);

    private final String logPrefix;
    private final ControllerRaft raft;
    private final ControllerQueues queues;
    private final AppendTraces traces;

    public ControllerAppends(String logPrefix, ControllerRaft raft, ControllerQueues queues, AppendTraces traces) {
        this.logPrefix = logPrefix;
        this.raft = raft;
        this.queues = queues;
        this.traces = traces;
    }

    @Override
    public void append(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
        RequestTrace trace = traces.appended(expectedLastOffset);
        raft.append(epoch, MetadataRecordCodec.encodeAll(records), (result, failure) -> {
            trace.mark(RequestTrace.Stage.RAFT_ACCEPTED);
            reportOutcome(epoch, expectedLastOffset, records.size(), result, failure);
        });
    }

    @Override
    public void appendControl(int epoch, long expectedLastOffset, List<ByteString> records) {
        raft.appendControl(epoch, records, (result, failure) ->
                reportOutcome(epoch, expectedLastOffset, records.size(), result, failure));
    }

    private void reportOutcome(int epoch, long expectedLastOffset, int count, AppendResult result,
                               Throwable failure) {
        queues.addRaftEvent((controller, nowMs) -> {
            if (failure == null && result.accepted() && result.lastOffset() == expectedLastOffset) {
                controller.handleAppendAccepted(epoch, expectedLastOffset);
            } else {
                LOG.warn("{}append of {} records in epoch {} not made as expected (ending at {}): {}",
                        logPrefix, count, epoch, expectedLastOffset, describe(result, failure));
                controller.handleAppendRefused(epoch);
            }
        });
    }

    private static String describe(AppendResult result, Throwable failure) {
        return failure != null ? failure.toString() : result.toString();
    }

    @Override
    public void resign(int epoch) {
        raft.resign(epoch);
    }
}

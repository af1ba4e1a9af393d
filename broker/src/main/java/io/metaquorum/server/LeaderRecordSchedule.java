package io.metaquorum.server;

import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.loader.LeaderRecordWriter;
import io.metaquorum.metadata.loader.LeaderRecordWriter.LeaderAppend;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.core.AppendResult;
import io.metaquorum.raft.core.RaftCore;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link LeaderRecordWriter} (bootstrap record, idle NoOpRecords) in a node
 * process: a timer thread queues a tick on the raft driver every {@code tickMs}; the tick
 * runs on the driver thread, where it reads the core's status and the committed image and
 * appends in the leader's own epoch. The writer's state is therefore only touched by the
 * driver thread.
 */
final class LeaderRecordSchedule implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderRecordSchedule.class);

    private final String logPrefix;
    private final RaftNode raftNode;
    private final MetadataLoader loader;
    private final LeaderRecordWriter writer;
    private final Time time;
    private final long tickMs;
    private final ScheduledExecutorService timer;

    LeaderRecordSchedule(int nodeId, RaftNode raftNode, MetadataLoader loader, LeaderRecordWriter writer, Time time,
                         long tickMs) {
        this.logPrefix = "[node " + nodeId + "] ";
        this.raftNode = raftNode;
        this.loader = loader;
        this.writer = writer;
        this.time = time;
        this.tickMs = tickMs;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "leader-records-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
    }

    void start() {
        timer.scheduleWithFixedDelay(this::queueTick, tickMs, tickMs, TimeUnit.MILLISECONDS);
    }

    private void queueTick() {
        try {
            raftNode.execute(this::tickOnDriver);
        } catch (RejectedExecutionException stoppedOrFull) {
            // The driver is stopping or busy; the next tick tries again.
        }
    }

    private void tickOnDriver(RaftCore core) {
        long nowMs = time.milliseconds();
        for (LeaderAppend append : writer.poll(core.status(), loader.image(), nowMs)) {
            AppendResult result = core.append(append.epoch(), MetadataRecordCodec.encodeAll(append.records()), nowMs);
            if (!result.accepted()) {
                writer.onAppendRefused(append);
            } else if (append.records().stream().anyMatch(r -> r.getRecordCase() == MetadataRecord.RecordCase.FEATURE_LEVEL)) {
                LOG.info("{}appended the bootstrap record {}={} at offset {} in epoch {}", logPrefix,
                        MetadataRecordCodec.METADATA_VERSION_FEATURE, MetadataRecordCodec.METADATA_VERSION_LEVEL,
                        result.lastOffset(), append.epoch());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(tickMs * 10, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

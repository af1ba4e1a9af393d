package io.metaquorum.metadata.loader;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.core.RaftStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * What a leader writes on its own, before the controller exists: the bootstrap
 * {@code FeatureLevelRecord{metadata.version, 1}} of a new cluster, and a {@code NoOpRecord}
 * every {@code idleIntervalMs} ({@code metadata.max.idle.interval.ms}) so followers and
 * observers see the high watermark move on an idle cluster.
 *
 * <p>Bootstrap rule: once the leader of epoch E has applied a committed record of epoch E
 * (its own leader-change record), it has applied every record of earlier epochs; if the
 * image then has no {@code metadata.version}, nothing was ever bootstrapped, so it appends
 * the record, at most once per epoch. A bootstrap lost with its leader is written again by
 * the next one; a committed one is seen by every later leader before it decides.
 *
 * <p>Deterministic: the caller passes the time and appends what {@link #poll} returns, and
 * reports a refused append with {@link #onAppendRefused}. Single-threaded.
 */
public final class LeaderRecordWriter {
    /** Records to append in {@code epoch}. */
    public record LeaderAppend(int epoch, List<MetadataRecord> records) {
        public LeaderAppend {
            records = List.copyOf(records);
        }
    }

    private final long idleIntervalMs;
    /** The epoch this node leads, -1 when it does not. */
    private int leadingEpoch = -1;
    /** The epoch in which the bootstrap record was appended, -1 when none. */
    private int bootstrapEpoch = -1;
    private long nextNoOpMs;

    public LeaderRecordWriter(long idleIntervalMs) {
        Invariants.check(idleIntervalMs > 0, "metadata.max.idle.interval.ms must be > 0, got %d", idleIntervalMs);
        this.idleIntervalMs = idleIntervalMs;
    }

    /** The records to append now; empty unless this node leads. */
    public List<LeaderAppend> poll(RaftStatus status, MetadataImage image, long nowMs) {
        if (!status.isLeader()) {
            leadingEpoch = -1;
            return List.of();
        }
        if (status.epoch() != leadingEpoch) {
            leadingEpoch = status.epoch();
            nextNoOpMs = nowMs + idleIntervalMs;
        }
        List<MetadataRecord> records = new ArrayList<>(2);
        if (needsBootstrap(image)) {
            records.add(MetadataRecordCodec.featureLevel(MetadataRecordCodec.METADATA_VERSION_FEATURE,
                    MetadataRecordCodec.METADATA_VERSION_LEVEL));
            bootstrapEpoch = leadingEpoch;
        }
        if (nowMs >= nextNoOpMs) {
            records.add(MetadataRecordCodec.noOp());
            nextNoOpMs = nowMs + idleIntervalMs;
        }
        return records.isEmpty() ? List.of() : List.of(new LeaderAppend(leadingEpoch, records));
    }

    private boolean needsBootstrap(MetadataImage image) {
        return bootstrapEpoch != leadingEpoch
                && image.lastCommittedEpoch() == leadingEpoch
                && image.features().level(MetadataRecordCodec.METADATA_VERSION_FEATURE).isEmpty();
    }

    /** The append of {@code append} was refused: a bootstrap in it must be retried. */
    public void onAppendRefused(LeaderAppend append) {
        if (append.epoch() == bootstrapEpoch) {
            bootstrapEpoch = -1;
        }
    }

    /** When {@link #poll} next has something to do on its own (absolute ms); meaningful while leading. */
    public long nextDeadlineMs() {
        return nextNoOpMs;
    }
}

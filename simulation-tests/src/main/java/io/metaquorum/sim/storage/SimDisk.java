package io.metaquorum.sim.storage;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.StorageException;
import java.util.List;
import java.util.Random;
import io.metaquorum.raft.storage.RecordBatches;

/**
 * One node's disk: what survives when its process dies. It holds the synced log
 * ({@link DurableLog}) and the election state; the process's view of the log lives in a
 * {@link SimRaftLog} and reaches the disk only through a sync.
 *
 * <p>Fault model ({@link DiskProfile}): sync latency with stalls; I/O errors on writes
 * that stop the node; a crash loses every write not synced, or, with untidy crashes,
 * keeps a prefix of them with the first lost write possibly torn (its CRC no longer
 * matches); a wipe loses everything (a replaced disk).
 */
public final class SimDisk {
    private final int nodeId;
    private final Random random;
    private final DurableLog log = new DurableLog();
    /** What the disk held before the last wipe (empty if never wiped): a leader may still act on it. */
    private DurableLog beforeLastWipe = new DurableLog();
    private DiskProfile profile;
    /** Invariant: null until the first write (a fresh disk). */
    private ElectionState electionState;
    private long writeErrorCount;
    private long tornBatchCount;
    private long stallCount;
    /** What the last format wrote; {@link DiskFormat#STATIC} at kraft.version 0. */
    private DiskFormat format = DiskFormat.STATIC;
    /** The format of the disk the last wipe replaced (that of {@link #beforeLastWipe}). */
    private DiskFormat formatBeforeLastWipe = DiskFormat.STATIC;
    /** Reformats a wiped disk; null at kraft.version 0, where a wipe keeps no format to renew. */
    private DiskFormatter formatter;

    public SimDisk(int nodeId, Random random, DiskProfile profile) {
        this.nodeId = nodeId;
        this.random = random;
        this.profile = profile;
    }

    public int nodeId() {
        return nodeId;
    }

    public DiskProfile profile() {
        return profile;
    }

    public void setProfile(DiskProfile profile) {
        this.profile = profile;
    }

    /** How long the next sync takes. */
    public long nextSyncLatencyMs() {
        long latency = profile.syncMinMs() + random.nextInt(profile.syncMaxMs() - profile.syncMinMs() + 1);
        if (profile.stallProbability() > 0 && random.nextDouble() < profile.stallProbability()) {
            stallCount++;
            latency += random.nextInt(profile.stallMaxMs() + 1);
        }
        return latency;
    }

    /** Throws an I/O error with the profile's probability; {@code what} and {@code offset} name the write. */
    void maybeFailWrite(String what, long offset) {
        if (profile.writeErrorProbability() > 0 && random.nextDouble() < profile.writeErrorProbability()) {
            writeErrorCount++;
            throw new StorageException("node " + nodeId + ": simulated I/O error on " + what
                    + (offset >= 0 ? " at offset " + offset : ""));
        }
    }

    /** A sync: the pending appends become durable, in order. */
    void sync(List<RecordBatch> pending) {
        pending.forEach(log::append);
    }

    /** A synced truncation: nothing at or above {@code offset} is on the disk any more. */
    void truncateTo(long offset) {
        log.truncateTo(offset);
    }

    void installSnapshot(OffsetAndEpoch id, byte[] content) {
        log.installSnapshot(id, content);
    }

    /**
     * The process died with {@code pending} unsynced: decides what of it is on the disk.
     * Returns true if any pending write was lost.
     */
    boolean crash(List<RecordBatch> pending) {
        int kept = 0;
        if (profile.untidyCrashes() && !pending.isEmpty()) {
            kept = random.nextInt(pending.size() + 1);
        }
        for (int i = 0; i < kept; i++) {
            log.append(pending.get(i));
        }
        if (kept < pending.size() && profile.untidyCrashes() && random.nextDouble() < profile.tornWriteProbability()) {
            log.append(torn(pending.get(kept)));
            tornBatchCount++;
        }
        return kept < pending.size();
    }

    /** The disk is replaced: nothing survives; the new disk is formatted with a new directory id (kraft.version 1). */
    public void wipe() {
        beforeLastWipe = log.copy();
        log.clear();
        electionState = null;
        formatBeforeLastWipe = format;
        if (formatter != null) {
            format = formatter.replacement();
        }
    }

    /** {@code mq-storage format} on this disk; {@code by} formats its replacements after a wipe. */
    void format(DiskFormat newFormat, DiskFormatter by) {
        this.format = newFormat;
        this.formatter = by;
    }

    public DiskFormat format() {
        return format;
    }

    /** The format of the disk the last wipe replaced; {@link DiskFormat#STATIC} if none was. */
    public DiskFormat formatBeforeLastWipe() {
        return formatBeforeLastWipe;
    }

    ElectionState electionState() {
        return electionState;
    }

    /** The election state on the disk, or null on a fresh disk. */
    public ElectionState durableElectionState() {
        return electionState;
    }

    void writeElectionState(ElectionState state) {
        electionState = state;
    }

    DurableLog log() {
        return log;
    }

    /** Whether the record at {@code offset} is durably stored here with {@code epoch}. */
    public boolean durablyStores(long offset, int epoch) {
        return log.stores(offset, epoch);
    }

    /**
     * Whether the disk replaced by the last wipe durably stored the record at {@code offset}
     * with {@code epoch}: what the voter could have reported before the wipe.
     */
    public boolean storedBeforeLastWipe(long offset, int epoch) {
        return beforeLastWipe.stores(offset, epoch);
    }

    public long durableEndOffset() {
        return log.endOffset();
    }

    /** The durable epoch (0 on a fresh disk), as a restarted process would read it. */
    public int durableEpoch() {
        return electionState == null ? 0 : electionState.epoch();
    }

    public long writeErrorCount() {
        return writeErrorCount;
    }

    public long tornBatchCount() {
        return tornBatchCount;
    }

    /** Syncs that stalled (the slow-disk fault). */
    public long stallCount() {
        return stallCount;
    }

    /** The batch as a crash mid-write leaves it: its last record cut short, the CRC unchanged. */
    private static RecordBatch torn(RecordBatch batch) {
        List<ByteString> records = RecordBatches.records(batch);
        int cutBytes = Math.max(1, records.get(records.size() - 1).size() / 2);
        ByteString block = batch.getRecords();
        return batch.toBuilder().setRecords(block.substring(0, block.size() - cutBytes)).build();
    }
}

package io.metaquorum.metadata.tool;

import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code mq-metadata verify}: checks a stored metadata log end to end and says what it
 * checked. In one pass over the stored batches: each parses, passes its CRC32C, sits under
 * its own base offset and starts where the previous ended, the first at the log start that
 * {@code meta} records; epochs never decrease and never fall below the log start snapshot's;
 * the {@code epochs} index holds exactly the first offset of each epoch. The snapshot chain
 * ({@link SnapshotChain}): every file decodes, epochs do not decrease, the log-start
 * snapshot's file exists. The replay: the log-start snapshot's image plus every record through
 * {@link MetadataDelta} without an invariant failure, and at the end offset of every other
 * snapshot inside the log the replayed image equals the snapshot's image.
 *
 * <p>The first problem stops the check with a {@link VerifyFailure} naming its offset.
 */
public final class LogVerifier {
    private final LogDirectory directory;
    private final List<String> report = new ArrayList<>();
    private final TreeMap<Integer, Long> epochFirstOffsets = new TreeMap<>();
    private final TreeMap<Long, MetadataImage> snapshotImagesByEnd = new TreeMap<>();
    private MetadataDelta delta;
    private long batches;
    private long records;
    private long bytes;
    private long expectedBase;
    private int lastEpoch;

    private LogVerifier(LogDirectory directory) {
        this.directory = directory;
    }

    /** Verifies {@code directory}; returns the report lines, or throws {@link VerifyFailure}. */
    public static List<String> verify(LogDirectory directory) {
        LogVerifier verifier = new LogVerifier(directory);
        verifier.run();
        return verifier.report;
    }

    private void run() {
        SnapshotChain chain = SnapshotChain.check(directory);
        report.add(chain.summary());
        OffsetAndEpoch start = directory.logStartSnapshot();
        delta = new MetadataDelta(start == null ? MetadataImage.EMPTY : chain.logStartImage());
        lastEpoch = start == null ? 0 : start.epoch();
        for (Map.Entry<OffsetAndEpoch, MetadataImage> each : chain.imagesInsideLog().entrySet()) {
            snapshotImagesByEnd.put(each.getKey().offset(), each.getValue());
        }
        expectedBase = directory.startOffset();
        try {
            StoredBatches.walk(directory.reader(), 0, this::onBatch);
        } catch (CorruptLogException e) {
            throw new VerifyFailure(e.offset(), e.getMessage());
        } catch (InvalidRecordException e) {
            throw new VerifyFailure(e.offset(), "replay: " + e.getMessage());
        }
        if (expectedBase != directory.endOffset()) {
            throw new VerifyFailure(expectedBase, "the log ends at " + expectedBase + " but its last batch ends at "
                    + directory.endOffset());
        }
        report.add("log: offsets [" + directory.startOffset() + ", " + directory.endOffset() + ") in " + batches
                + " batches, " + records + " records, " + bytes + " bytes: every CRC32C valid, offsets contiguous "
                + "from the log start " + directory.startOffset());
        checkEpochIndex();
        report.add("epochs: " + epochFirstOffsets.keySet() + " never decrease; the epoch index " + epochFirstOffsets
                + " matches the batches");
        MetadataImage image = delta.apply();
        report.add("replay: " + (start == null ? "from offset 0" : "snapshot " + start.offset() + "-" + start.epoch()
                + " then the log") + " to offset " + image.lastCommittedOffset() + " through MetadataDelta, no "
                + "invariant failure" + (snapshotImagesByEnd.isEmpty() ? "" : "; the image equals snapshot "
                + snapshotImagesByEnd.keySet() + " at its end offset") + " (" + image.topics().topicCount()
                + " topics, " + image.cluster().brokers().size() + " brokers)");
        report.add("verify: ok");
    }

    private boolean onBatch(RecordBatch batch, int storedBytes) {
        long base = batch.getBaseOffset();
        if (base != expectedBase) {
            throw new VerifyFailure(Math.min(base, expectedBase), batches == 0
                    ? "the first stored batch is at " + base + " but the log start recorded in meta is " + expectedBase
                    : "the batch at " + base + " does not follow the previous one, which ends at " + expectedBase);
        }
        if (batch.getEpoch() < lastEpoch) {
            throw new VerifyFailure(base, "epoch " + batch.getEpoch() + " follows epoch " + lastEpoch);
        }
        if (batches == 0 || batch.getEpoch() > lastEpoch) {
            epochFirstOffsets.put(batch.getEpoch(), base);
        }
        lastEpoch = batch.getEpoch();
        ImageReplay.replayBatch(delta, batch, Long.MAX_VALUE);
        batches++;
        records += batch.getRecordCount();
        bytes += storedBytes;
        expectedBase = RecordBatches.endOffset(batch);
        MetadataImage snapshotImage = snapshotImagesByEnd.get(expectedBase);
        if (snapshotImage != null && !snapshotImage.equals(delta.apply())) {
            throw new VerifyFailure(expectedBase - 1, "the replayed image at offset " + (expectedBase - 1)
                    + " differs from the image in the snapshot ending at " + expectedBase);
        }
        return true;
    }

    private void checkEpochIndex() {
        TreeMap<Integer, Long> index = directory.reader().epochStarts();
        if (index.equals(epochFirstOffsets)) {
            return;
        }
        long bad = Long.MAX_VALUE;
        for (Map.Entry<Integer, Long> entry : epochFirstOffsets.entrySet()) {
            if (!entry.getValue().equals(index.get(entry.getKey()))) {
                bad = Math.min(bad, entry.getValue());
            }
        }
        for (Map.Entry<Integer, Long> entry : index.entrySet()) {
            if (!entry.getValue().equals(epochFirstOffsets.get(entry.getKey()))) {
                bad = Math.min(bad, entry.getValue());
            }
        }
        throw new VerifyFailure(bad, "the epoch index " + index + " does not match the batches, whose epochs start at "
                + epochFirstOffsets);
    }
}

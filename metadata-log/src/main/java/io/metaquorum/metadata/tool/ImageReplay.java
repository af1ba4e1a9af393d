package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.List;

/**
 * The image of a stored metadata log at an offset, built the way a node builds it: the
 * snapshot the log starts after (if any), then the log's records through
 * {@link MetadataDelta}, control records only moving the provenance. The image "at N" has
 * replayed every record up to and including offset N, so its provenance's last offset is N.
 * An invalid record stops the replay with the {@code InvalidRecordException} naming it.
 */
public final class ImageReplay {
    private ImageReplay() {
    }

    /** The image with every record of the log (and its snapshot) replayed. */
    public static MetadataImage latest(LogDirectory directory) {
        return at(directory, directory.endOffset() - 1);
    }

    /**
     * The image at {@code lastOffset}; it must lie in [log start - 1, log end - 1] (the image
     * just before the log start is the snapshot's, or the empty one). An
     * {@link IllegalArgumentException} otherwise.
     */
    public static MetadataImage at(LogDirectory directory, long lastOffset) {
        long earliest = directory.startOffset() - 1;
        if (lastOffset < earliest || lastOffset >= directory.endOffset()) {
            throw new IllegalArgumentException("offset " + lastOffset + " is outside the log: images exist at offsets "
                    + earliest + " to " + (directory.endOffset() - 1) + (directory.logStartSnapshot() == null ? ""
                    : " (earlier ones are inside snapshot " + directory.logStartSnapshot().offset() + "-"
                    + directory.logStartSnapshot().epoch() + ")"));
        }
        MetadataImage base = directory.logStartSnapshot() == null ? MetadataImage.EMPTY
                : snapshotImage(directory.logStartSnapshot(), SnapshotFileReader.read(directory.path(),
                        directory.logStartSnapshot()));
        MetadataDelta delta = new MetadataDelta(base);
        StoredBatches.walk(directory.reader(), directory.startOffset(), (batch, bytes) -> {
            replayBatch(delta, batch, lastOffset);
            return RecordBatches.endOffset(batch) <= lastOffset;
        });
        return delta.apply();
    }

    /** Replays {@code batch}'s records up to {@code lastOffset} into {@code delta}. */
    public static void replayBatch(MetadataDelta delta, RecordBatch batch, long lastOffset) {
        long offset = batch.getBaseOffset();
        for (ByteString bytes : RecordBatches.records(batch)) {
            if (offset > lastOffset) {
                return;
            }
            if (batch.getControl()) {
                MetadataRecordCodec.decodeControl(bytes, offset);
                delta.advanceTo(offset, batch.getEpoch());
            } else {
                delta.replay(MetadataRecordCodec.decode(bytes, offset), offset, batch.getEpoch());
            }
            offset++;
        }
    }

    /**
     * The image a snapshot holds, numbered as a node loading it numbers it: the last record
     * stands at the snapshot's last contained offset.
     */
    public static MetadataImage snapshotImage(OffsetAndEpoch id, DecodedSnapshot snapshot) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        List<ByteString> records = snapshot.records();
        long offset = id.offset() - records.size();
        for (ByteString bytes : records) {
            delta.replay(MetadataRecordCodec.decode(bytes, offset), offset, id.epoch());
            offset++;
        }
        if (id.offset() > 0 && records.isEmpty()) {
            delta.advanceTo(id.offset() - 1, id.epoch());
        }
        return delta.apply();
    }
}

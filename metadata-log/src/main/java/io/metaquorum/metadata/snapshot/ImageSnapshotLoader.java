package io.metaquorum.metadata.snapshot;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.raft.snapshot.SnapshotDecoder;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;

/**
 * Replays a snapshot into an image, batch by batch as {@link SnapshotDecoder} reads them from
 * the file: the snapshot is never in memory whole, only the image it builds.
 *
 * <p>A snapshot's records have no log offsets: record i is replayed at offset i (its offset
 * inside the snapshot, as the data batches' base offsets count), then the image is moved to
 * the snapshot's last contained offset. A snapshot holds at most one record per record of the
 * log prefix it covers, so i stays below that offset; more is corruption. An invalid record
 * names the snapshot and its offset inside it.
 */
public final class ImageSnapshotLoader {
    private ImageSnapshotLoader() {
    }

    public static LoadedSnapshot load(OffsetAndEpoch id, SnapshotReader reader) {
        SnapshotDecoder decoder = SnapshotDecoder.of(reader);
        if (decoder.epoch() != id.epoch()) {
            throw new CorruptLogException(0, "snapshot " + id + ": its batches carry epoch " + decoder.epoch());
        }
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 0;
        for (List<ByteString> batch = decoder.nextBatch(); batch != null; batch = decoder.nextBatch()) {
            if (offset + batch.size() > id.offset()) {
                throw new CorruptLogException(0, "snapshot " + id + " holds more records than the "
                        + id.offset() + " log records it covers");
            }
            for (ByteString bytes : batch) {
                replay(delta, id, bytes, offset);
                offset++;
            }
        }
        if (id.offset() > 0 && offset < id.offset()) {
            delta.advanceTo(id.offset() - 1, id.epoch());
        }
        return new LoadedSnapshot(delta.apply(), decoder.recordCount(), decoder.lastContainedLogTimeMs(),
                decoder.raftRecords());
    }

    private static void replay(MetadataDelta delta, OffsetAndEpoch id, ByteString bytes, long offset) {
        try {
            delta.replay(MetadataRecordCodec.decode(bytes, offset), offset, id.epoch());
        } catch (InvalidRecordException e) {
            throw new InvalidRecordException(offset, "record of snapshot " + id, e.getMessage());
        } catch (CorruptLogException e) {
            throw new CorruptLogException(offset, "record " + offset + " of snapshot " + id + ": " + e.getMessage());
        }
    }
}

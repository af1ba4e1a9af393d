package io.metaquorum.metadata.image;

import io.metaquorum.metadata.snapshot.ImageSnapshotLoader;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.metadata.snapshot.TestSnapshots;
import io.metaquorum.protocol.MetadataRecord;
import java.util.List;

/** Rebuilds images the way a snapshot load does. */
public final class ImageTestSupport {
    private ImageTestSupport() {
    }

    /** {@code image} written as records and replayed into an empty image, ending at its provenance. */
    public static MetadataImage rebuilt(MetadataImage image) {
        List<MetadataRecord> records = image.toRecords();
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = image.committedEndOffset() - records.size();
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, image.lastCommittedEpoch());
        }
        if (records.isEmpty() && !image.isEmpty()) {
            delta.advanceTo(image.lastCommittedOffset(), image.lastCommittedEpoch());
        }
        return delta.apply();
    }

    /**
     * {@code image} through the production snapshot path: written as a snapshot by
     * {@link SnapshotTask#writeTo} in batches of 3 records, then loaded by
     * {@link ImageSnapshotLoader} reading chunks of 17 bytes.
     */
    public static MetadataImage rebuiltFromSnapshot(MetadataImage image) {
        SnapshotTask task = SnapshotTask.of(image, 0L);
        byte[] content = TestSnapshots.write(task, new SnapshotLimits(3, 1 << 20));
        return ImageSnapshotLoader.load(task.id(), TestSnapshots.reader(task.id(), content, 17)).image();
    }
}

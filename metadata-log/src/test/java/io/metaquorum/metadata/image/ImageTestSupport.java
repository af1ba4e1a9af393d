package io.metaquorum.metadata.image;

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
}

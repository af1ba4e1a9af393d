package io.metaquorum.metadata.image;

import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The immutable state the committed metadata log describes, as far as it is modeled yet:
 * feature levels, plus where the image stands in the log and who leads. A new image comes
 * from {@link MetadataDelta#apply}; nothing here changes in place (DESIGN.md §5).
 *
 * @param features               finalized feature levels
 * @param recordsReplayed        metadata records replayed to build this image (a snapshot
 *                               load counts the snapshot's records); control records excluded
 * @param lastCommittedOffset    offset of the last committed record applied, -1 when none
 * @param lastCommittedEpoch     epoch of that record, 0 when none
 * @param lastCommittedTimeMs    append time of the batch holding that record, -1 when none
 * @param leaderId               the current leader as raft last announced it, -1 when unknown
 * @param leaderEpoch            the epoch of that announcement
 */
public record MetadataImage(FeaturesImage features, long recordsReplayed, long lastCommittedOffset,
                            int lastCommittedEpoch, long lastCommittedTimeMs, int leaderId, int leaderEpoch) {
    public static final MetadataImage EMPTY = new MetadataImage(FeaturesImage.EMPTY, 0, -1, 0, -1, -1, 0);

    /** True before anything was committed: the log (and any snapshot) is empty. */
    public boolean isEmpty() {
        return lastCommittedOffset < 0;
    }

    /** One past the last applied offset: where a snapshot of this image ends. */
    public long committedEndOffset() {
        return lastCommittedOffset + 1;
    }

    public MetadataImage withLeader(int newLeaderId, int newLeaderEpoch) {
        return new MetadataImage(features, recordsReplayed, lastCommittedOffset, lastCommittedEpoch,
                lastCommittedTimeMs, newLeaderId, newLeaderEpoch);
    }

    /**
     * The image written out as records, in a fixed order, so that replaying them into an
     * empty image gives this image's state back (DESIGN.md §5: a snapshot is an image
     * written as records).
     */
    public List<MetadataRecord> toRecords() {
        List<MetadataRecord> records = new ArrayList<>(features.levels().size());
        for (Map.Entry<String, Integer> feature : features.levels().entrySet()) {
            records.add(MetadataRecordCodec.featureLevel(feature.getKey(), feature.getValue()));
        }
        return records;
    }
}

package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import java.util.List;

/**
 * The image the managers decide on. On the active controller it includes records appended
 * but not yet committed (so a second CreateTopics of a name right after the first sees it);
 * whoever drives the controller keeps the last committed image and puts it back with
 * {@link #revertTo} when leadership is lost. Changes only through {@link #replay}, the same
 * {@link MetadataDelta} path every node uses (docs/engineering-rules.md rule 5).
 */
public final class ControllerState {
    private MetadataImage image;

    public ControllerState(MetadataImage image) {
        this.image = image;
    }

    public MetadataImage image() {
        return image;
    }

    /** Replays {@code records}, the first at {@code baseOffset}, all of {@code epoch}. */
    public void replay(List<MetadataRecord> records, long baseOffset, int epoch) {
        MetadataDelta delta = new MetadataDelta(image);
        long offset = baseOffset;
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, epoch);
        }
        image = delta.apply();
    }

    /** Drops everything after {@code committed} (leadership lost: uncommitted records are gone). */
    public void revertTo(MetadataImage committed) {
        image = committed;
    }
}

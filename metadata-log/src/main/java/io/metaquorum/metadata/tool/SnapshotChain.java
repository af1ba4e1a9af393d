package io.metaquorum.metadata.tool;

import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The snapshot part of {@code mq-metadata verify}: every snapshot file decodes (CRC32C of
 * each batch, header, footer) and replays into an image; epochs do not decrease as end
 * offsets grow; the snapshot {@code meta} records as the log start has its file. A file newer
 * than the recorded one is an installation a crash interrupted (the node finishes it on its
 * next start) and older files are removed then too: both are reported, not failures.
 */
final class SnapshotChain {
    private final List<OffsetAndEpoch> ids;
    private final List<String> notes;
    private final OffsetAndEpoch recorded;
    private final MetadataImage logStartImage;
    /** Snapshots ending strictly inside the stored log, whose image the replay must meet. */
    private final TreeMap<OffsetAndEpoch, MetadataImage> imagesInsideLog;

    private SnapshotChain(List<OffsetAndEpoch> ids, OffsetAndEpoch recorded, List<String> notes,
                          MetadataImage logStartImage,
                          TreeMap<OffsetAndEpoch, MetadataImage> imagesInsideLog) {
        this.ids = ids;
        this.notes = notes;
        this.recorded = recorded;
        this.logStartImage = logStartImage;
        this.imagesInsideLog = imagesInsideLog;
    }

    static SnapshotChain check(LogDirectory directory) {
        List<OffsetAndEpoch> ids = SnapshotFileReader.list(directory.path());
        OffsetAndEpoch recorded = directory.logStartSnapshot();
        if (recorded != null && !ids.contains(recorded)) {
            throw new VerifyFailure(recorded.offset(), "the log starts after snapshot " + name(recorded)
                    + " (as meta records) but its file is missing");
        }
        List<String> notes = new ArrayList<>();
        MetadataImage logStartImage = null;
        TreeMap<OffsetAndEpoch, MetadataImage> inside = new TreeMap<>(SnapshotChain::compare);
        OffsetAndEpoch previous = null;
        for (OffsetAndEpoch id : ids) {
            if (previous != null && id.epoch() < previous.epoch()) {
                throw new VerifyFailure(id.offset(), "snapshot " + name(id) + " has a lower epoch than the older "
                        + name(previous));
            }
            previous = id;
            MetadataImage image = image(directory, id);
            if (id.equals(recorded)) {
                logStartImage = image;
            } else if (id.offset() > directory.startOffset() && id.offset() <= directory.endOffset()) {
                inside.put(id, image);
            } else if (recorded == null || compare(id, recorded) > 0) {
                notes.add("snapshot " + name(id) + " is newer than the log start: an interrupted installation the "
                        + "node finishes on its next start");
            } else {
                notes.add("snapshot " + name(id) + " is older than the log start: the node deletes it on its next "
                        + "start");
            }
        }
        return new SnapshotChain(ids, recorded, notes, logStartImage, inside);
    }

    private static MetadataImage image(LogDirectory directory, OffsetAndEpoch id) {
        DecodedSnapshot snapshot;
        try {
            snapshot = SnapshotFileReader.read(directory.path(), id);
        } catch (CorruptLogException e) {
            throw new VerifyFailure(id.offset(), e.getMessage());
        }
        if (snapshot.epoch() != id.epoch()) {
            throw new VerifyFailure(id.offset(), "snapshot " + name(id) + " holds batches of epoch " + snapshot.epoch());
        }
        try {
            return ImageReplay.snapshotImage(id, snapshot);
        } catch (CorruptLogException | InvalidRecordException e) {
            throw new VerifyFailure(id.offset(), "snapshot " + name(id) + " does not replay: " + e.getMessage());
        }
    }

    static String name(OffsetAndEpoch id) {
        return id.offset() + "-" + id.epoch();
    }

    private static int compare(OffsetAndEpoch a, OffsetAndEpoch b) {
        return a.offset() != b.offset() ? Long.compare(a.offset(), b.offset()) : Integer.compare(a.epoch(), b.epoch());
    }

    MetadataImage logStartImage() {
        return logStartImage;
    }

    TreeMap<OffsetAndEpoch, MetadataImage> imagesInsideLog() {
        return imagesInsideLog;
    }

    String summary() {
        StringBuilder text = new StringBuilder("snapshots: ");
        if (ids.isEmpty()) {
            text.append("none");
        } else {
            text.append(ids.size()).append(" (").append(String.join(", ", ids.stream().map(SnapshotChain::name)
                    .toList())).append("), every file decodes and replays, epochs never decrease");
        }
        text.append(recorded != null ? "; the log starts after " + name(recorded) + " as meta records, and its "
                + "file is present" : "");
        notes.forEach(note -> text.append("; ").append(note));
        return text.toString();
    }
}

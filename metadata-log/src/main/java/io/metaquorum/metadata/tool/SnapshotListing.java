package io.metaquorum.metadata.tool;

import io.metaquorum.metadata.record.RecordText;
import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.snapshot.SnapshotCodec;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mq-metadata snapshots}: the snapshot files of a metadata log directory, oldest
 * first, each decoded and verified through {@link SnapshotCodec} (every batch's CRC32C, the
 * header and footer). A file that does not verify is listed as corrupt rather than stopping
 * the listing. Reads the files only (never the database), so it works on a running node too.
 */
public final class SnapshotListing {
    /** The snapshot subdirectory of a metadata.log.dir. */
    public static final String SNAPSHOT_DIRECTORY = SnapshotFileReader.SNAPSHOT_DIRECTORY;

    /**
     * One snapshot file.
     *
     * @param records  data records held, -1 when the file is corrupt
     * @param checksum {@code valid}, or {@code corrupt: <what is wrong>}
     */
    public record Entry(Path file, OffsetAndEpoch id, long sizeBytes, int records, long lastContainedLogTimeMs,
                        String checksum) {
        public boolean valid() {
            return records >= 0;
        }

        public String describe() {
            return "snapshot: " + file.getFileName() + " endOffset: " + id.offset() + " epoch: " + id.epoch()
                    + " bytes: " + sizeBytes + " records: " + (valid() ? records : "?") + " lastContainedLogTime: "
                    + MetadataLogDump.time(lastContainedLogTimeMs) + " checksum: " + checksum;
        }

        public String json() {
            StringBuilder out = new StringBuilder("{\"file\": ");
            RecordText.appendString(file.getFileName().toString(), out);
            out.append(", \"endOffset\": ").append(id.offset()).append(", \"epoch\": ").append(id.epoch())
                    .append(", \"bytes\": ").append(sizeBytes).append(", \"records\": ").append(records)
                    .append(", \"lastContainedLogTimeMs\": ").append(lastContainedLogTimeMs)
                    .append(", \"checksum\": ");
            RecordText.appendString(checksum, out);
            return out.append('}').toString();
        }
    }

    private SnapshotListing() {
    }

    /**
     * The snapshots in {@code metadataLogDir}, oldest first. Throws {@code StorageException}
     * if the directory cannot be read.
     */
    public static List<Entry> list(Path metadataLogDir) {
        List<Entry> entries = new ArrayList<>();
        for (OffsetAndEpoch id : SnapshotFileReader.list(metadataLogDir)) {
            entries.add(read(metadataLogDir, id));
        }
        return entries;
    }

    /** The listing as one JSON object: {@code {"snapshots": [...]}}. */
    public static String json(List<Entry> entries) {
        StringBuilder out = new StringBuilder("{\"snapshots\": [");
        for (int i = 0; i < entries.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(entries.get(i).json());
        }
        return out.append("]}").toString();
    }

    private static Entry read(Path metadataLogDir, OffsetAndEpoch id) {
        Path file = SnapshotFileReader.file(metadataLogDir, id);
        byte[] content = SnapshotFileReader.content(metadataLogDir, id);
        try {
            DecodedSnapshot snapshot = SnapshotCodec.decode(content);
            return new Entry(file, id, content.length, snapshot.records().size(), snapshot.lastContainedLogTimeMs(),
                    "valid");
        } catch (CorruptLogException e) {
            return new Entry(file, id, content.length, -1, -1, "corrupt: " + e.getMessage());
        }
    }
}

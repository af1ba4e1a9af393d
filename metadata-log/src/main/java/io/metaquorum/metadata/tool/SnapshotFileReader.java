package io.metaquorum.metadata.tool;

import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.snapshot.SnapshotCodec;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The snapshot files of a metadata log directory, read-only, through {@link SnapshotCodec}:
 * {@code <dir>/snapshots/<endOffset:20>-<epoch:10>.checkpoint} (the names the log store
 * writes; partial {@code .part} files are not snapshots). Never writes or deletes anything,
 * so a running node's directory is safe to read.
 */
public final class SnapshotFileReader {
    public static final String SNAPSHOT_DIRECTORY = "snapshots";
    private static final Pattern FILE_NAME = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    private static final Pattern ID_TEXT = Pattern.compile("(\\d{1,20})-(\\d{1,10})(\\.checkpoint)?");
    /** Snapshots listed at most; a directory holds one or two in normal operation. */
    static final int FILES_MAX = 10_000;

    private SnapshotFileReader() {
    }

    /** The snapshot ids in {@code metadataLogDir}, oldest first (by end offset, then epoch). */
    public static List<OffsetAndEpoch> list(Path metadataLogDir) {
        Path directory = metadataLogDir.resolve(SNAPSHOT_DIRECTORY);
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<OffsetAndEpoch> ids = new ArrayList<>();
        try (Stream<Path> paths = Files.list(directory)) {
            paths.limit(FILES_MAX).forEach(path -> {
                Matcher name = FILE_NAME.matcher(path.getFileName().toString());
                if (name.matches()) {
                    ids.add(new OffsetAndEpoch(Long.parseLong(name.group(1)), Integer.parseInt(name.group(2))));
                }
            });
        } catch (IOException e) {
            throw new StorageException("cannot list " + directory + ": " + e.getMessage(), e);
        }
        ids.sort((a, b) -> a.offset() != b.offset() ? Long.compare(a.offset(), b.offset())
                : Integer.compare(a.epoch(), b.epoch()));
        return ids;
    }

    public static Path file(Path metadataLogDir, OffsetAndEpoch id) {
        return metadataLogDir.resolve(SNAPSHOT_DIRECTORY).resolve(String.format("%020d-%010d.checkpoint",
                id.offset(), id.epoch()));
    }

    /**
     * Parses a snapshot id as the tools take it: {@code END-EPOCH} ({@code 1200-3}), with or
     * without the zero padding and the {@code .checkpoint} suffix of the file name.
     */
    public static OffsetAndEpoch parseId(String text) {
        Matcher id = ID_TEXT.matcher(text.trim());
        if (!id.matches()) {
            throw new IllegalArgumentException("a snapshot id is END_OFFSET-EPOCH (e.g. 1200-3, or the file name "
                    + "00000000000000001200-0000000003.checkpoint), got '" + text + "'");
        }
        return new OffsetAndEpoch(Long.parseLong(id.group(1)), Integer.parseInt(id.group(2)));
    }

    public static byte[] content(Path metadataLogDir, OffsetAndEpoch id) {
        Path file = file(metadataLogDir, id);
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new StorageException("cannot read snapshot file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads and verifies snapshot {@code id}; a {@link CorruptLogException} naming the file when it does not verify. */
    public static DecodedSnapshot read(Path metadataLogDir, OffsetAndEpoch id) {
        byte[] content = content(metadataLogDir, id);
        try {
            return SnapshotCodec.decode(content);
        } catch (CorruptLogException e) {
            throw new CorruptLogException(e.offset(), "snapshot file " + file(metadataLogDir, id).getFileName()
                    + " (the offset is a byte position): " + e.getMessage());
        }
    }

    /** Snapshot {@code id}, which must be in the directory; an {@link IllegalArgumentException} naming those present. */
    public static DecodedSnapshot readExisting(Path metadataLogDir, OffsetAndEpoch id) {
        List<OffsetAndEpoch> present = list(metadataLogDir);
        if (!present.contains(id)) {
            throw new IllegalArgumentException("no snapshot " + id.offset() + "-" + id.epoch() + " in "
                    + metadataLogDir.resolve(SNAPSHOT_DIRECTORY) + "; present: " + (present.isEmpty() ? "none"
                    : String.join(", ", present.stream().map(s -> s.offset() + "-" + s.epoch()).toList())));
        }
        return read(metadataLogDir, id);
    }
}

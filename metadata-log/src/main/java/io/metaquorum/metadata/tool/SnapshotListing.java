package io.metaquorum.metadata.tool;

import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.snapshot.SnapshotCodec;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code mq-metadata snapshots}: the snapshot files of a metadata log directory, oldest
 * first, each decoded and verified. Reads the files only (never the database), so it works
 * on a running node too. Files are {@code <dir>/snapshots/<endOffset:20>-<epoch:10>.checkpoint}
 * (KIP-630 names, as the RocksDB log store writes them); partial files are not listed.
 */
public final class SnapshotListing {
    /** The snapshot subdirectory of a metadata.log.dir. */
    public static final String SNAPSHOT_DIRECTORY = "snapshots";
    private static final Pattern NAME = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    /** Snapshots listed at most; a directory holds one or two in normal operation. */
    static final int FILES_MAX = 10_000;

    /** One verified snapshot file. */
    public record Entry(Path file, OffsetAndEpoch id, long sizeBytes, int records, long lastContainedLogTimeMs) {
        public String describe() {
            return "snapshot: " + file.getFileName() + " endOffset: " + id.offset() + " epoch: " + id.epoch()
                    + " bytes: " + sizeBytes + " records: " + records + " lastContainedLogTime: "
                    + (lastContainedLogTimeMs < 0 ? "none" : Instant.ofEpochMilli(lastContainedLogTimeMs).toString());
        }
    }

    private SnapshotListing() {
    }

    /**
     * The snapshots in {@code metadataLogDir}, oldest first. Throws {@link UncheckedIOException}
     * if the directory cannot be read, {@link CorruptLogException} if a file does not verify
     * (its message names the file).
     */
    public static List<Entry> list(Path metadataLogDir) {
        Path directory = metadataLogDir.resolve(SNAPSHOT_DIRECTORY);
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> paths = Files.list(directory)) {
            files = paths.filter(p -> NAME.matcher(p.getFileName().toString()).matches()).sorted()
                    .limit(FILES_MAX).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory + ": " + e.getMessage(), e);
        }
        List<Entry> entries = new ArrayList<>(files.size());
        for (Path file : files) {
            entries.add(read(file));
        }
        return entries;
    }

    private static Entry read(Path file) {
        Matcher name = NAME.matcher(file.getFileName().toString());
        if (!name.matches()) {
            throw new IllegalArgumentException("not a snapshot file name: " + file);
        }
        OffsetAndEpoch id = new OffsetAndEpoch(Long.parseLong(name.group(1)), Integer.parseInt(name.group(2)));
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        DecodedSnapshot snapshot;
        try {
            snapshot = SnapshotCodec.decode(content);
        } catch (CorruptLogException e) {
            throw new CorruptLogException(e.offset(), "snapshot file " + file + " (byte position): " + e.getMessage());
        }
        return new Entry(file, id, content.length, snapshot.records().size(), snapshot.lastContainedLogTimeMs());
    }
}

package io.metaquorum.broker.partition.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.broker.partition.PartitionStore;
import io.metaquorum.common.invariant.InvariantViolation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NIO store on real directories: atomic metadata writes, renames, deletes that stay inside the log dir. */
class NioPartitionStoreTest {
    private static final byte[] METADATA = "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAg".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path root;

    private final NioPartitionStore store = new NioPartitionStore(4);

    @AfterEach
    void closeStore() {
        store.close();
    }

    /** The steps of a batch of one, in the order DirectoryBatch takes them. */
    private void create(Path logDir, String dir) throws IOException {
        PartitionStore.NewPartition partition = new PartitionStore.NewPartition(dir, METADATA);
        store.writePartition(logDir, partition);
        store.syncPartitionFiles(logDir, List.of(partition));
        store.publishPartition(logDir, dir);
    }

    private Path logDir() throws IOException {
        return Files.createDirectories(root.resolve("logs"));
    }

    private static List<String> tree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.map(p -> dir.relativize(p).toString()).sorted(Comparator.naturalOrder()).toList();
        }
    }

    @Test
    void createsTheDirectoryAndTheFileAndLeavesNoTemporaryFile() throws IOException {
        Path logDir = logDir();
        create(logDir, "t.x-3");
        store.sync(logDir);
        assertArrayEquals(METADATA, Files.readAllBytes(logDir.resolve("t.x-3/partition.metadata")));
        assertEquals(List.of("", "t.x-3", "t.x-3/partition.metadata"), tree(logDir));
        assertArrayEquals(METADATA, store.readPartitionMetadata(logDir, "t.x-3", 100));
        assertEquals(List.of(new PartitionStore.Entry("t.x-3", true)), store.list(logDir));
        assertThrows(FileAlreadyExistsException.class, () -> create(logDir, "t.x-3"));
    }

    @Test
    void aCreateOverAnExistingDirectoryFailsAndLeavesItAsItWas() throws IOException {
        Path logDir = logDir();
        Files.createDirectories(logDir.resolve("t-0"));
        Files.writeString(logDir.resolve("t-0/00000000000000000000.log"), "data");
        assertThrows(FileAlreadyExistsException.class, () -> create(logDir, "t-0"));
        assertEquals(List.of("", "t-0", "t-0/00000000000000000000.log"), tree(logDir));
    }

    @Test
    void aBatchHasOnlyTemporaryFilesUntilEachIsSyncedOnThePoolAndRenamed() throws IOException {
        Path logDir = logDir();
        List<PartitionStore.NewPartition> batch = new java.util.ArrayList<>();
        for (int p = 0; p < 10; p++) {
            batch.add(new PartitionStore.NewPartition("t-" + p, METADATA));
            store.writePartition(logDir, batch.get(p));
        }
        for (int p = 0; p < 10; p++) {
            assertNull(store.readPartitionMetadata(logDir, "t-" + p, 100), "no partition.metadata before the rename");
            assertArrayEquals(METADATA, Files.readAllBytes(logDir.resolve("t-" + p + "/partition.metadata.tmp")));
        }
        store.syncPartitionFiles(logDir, batch);
        for (int p = 0; p < 10; p++) {
            store.publishPartition(logDir, "t-" + p);
        }
        store.sync(logDir);
        for (int p = 0; p < 10; p++) {
            assertEquals(List.of("", "partition.metadata"), tree(logDir.resolve("t-" + p)));
            assertArrayEquals(METADATA, store.readPartitionMetadata(logDir, "t-" + p, 100));
        }
    }

    @Test
    void aFailedSyncInABatchNamesItsFileAfterTheOthersAreSynced() throws IOException {
        Path logDir = logDir();
        List<PartitionStore.NewPartition> batch = new java.util.ArrayList<>();
        for (int p = 0; p < 10; p++) {
            batch.add(new PartitionStore.NewPartition("t-" + p, METADATA));
            store.writePartition(logDir, batch.get(p));
        }
        Files.delete(logDir.resolve("t-5/partition.metadata.tmp"));
        IOException failure = assertThrows(IOException.class, () -> store.syncPartitionFiles(logDir, batch));
        assertTrue(failure.getMessage().contains("t-5"), failure.getMessage());
    }

    @Test
    void readsAMissingFileAsNullAndALongOneCut() throws IOException {
        Path logDir = logDir();
        Files.createDirectories(logDir.resolve("t-0"));
        assertNull(store.readPartitionMetadata(logDir, "t-0", 65));
        Files.writeString(logDir.resolve("t-0/partition.metadata"), "x".repeat(1000));
        assertEquals(65, store.readPartitionMetadata(logDir, "t-0", 65).length);
    }

    @Test
    void renamesAndRefusesToReplaceAnExistingEntry() throws IOException {
        Path logDir = logDir();
        create(logDir, "t-0");
        store.rename(logDir, "t-0", "t-0.5-stray");
        assertEquals(List.of("", "t-0.5-stray", "t-0.5-stray/partition.metadata"), tree(logDir));
        Files.createDirectory(logDir.resolve("empty"));
        assertThrows(FileAlreadyExistsException.class, () -> store.rename(logDir, "t-0.5-stray", "empty"));
        assertTrue(Files.exists(logDir.resolve("t-0.5-stray/partition.metadata")));
    }

    @Test
    void deletesATreeButNeverWhatALinkInsideItPointsTo() throws IOException {
        Path logDir = logDir();
        Path outside = Files.createDirectories(root.resolve("precious"));
        Files.writeString(outside.resolve("keep"), "keep");
        create(logDir, "t-0");
        Files.createDirectories(logDir.resolve("t-0/sub/deeper"));
        Files.writeString(logDir.resolve("t-0/sub/deeper/00000000000000000000.log"), "data");
        Files.createSymbolicLink(logDir.resolve("t-0/link"), outside);
        Files.createSymbolicLink(logDir.resolve("t-0/sub/file-link"), outside.resolve("keep"));
        create(logDir, "t-1");

        store.deleteRecursively(logDir, "t-0");
        assertFalse(Files.exists(logDir.resolve("t-0")));
        assertEquals(List.of("", "keep"), tree(outside));
        assertEquals(List.of("", "t-1", "t-1/partition.metadata"), tree(logDir));
    }

    @Test
    void aLinkUnderTheLogDirIsNotADirectory() throws IOException {
        Path logDir = logDir();
        Path outside = Files.createDirectories(root.resolve("elsewhere-0"));
        Files.createSymbolicLink(logDir.resolve("t-0"), outside);
        Files.writeString(logDir.resolve("meta.properties"), "version=1\n");
        List<PartitionStore.Entry> entries = store.list(logDir).stream()
                .sorted(Comparator.comparing(PartitionStore.Entry::name)).toList();
        assertEquals(List.of(new PartitionStore.Entry("meta.properties", false), new PartitionStore.Entry("t-0", false)),
                entries);
    }

    @Test
    void namesThatLeaveTheLogDirAreRefused() throws IOException {
        Path logDir = logDir();
        for (String name : new String[] {"..", ".", "", "../x", "a/b"}) {
            assertThrows(InvariantViolation.class, () -> store.deleteRecursively(logDir, name), name);
            assertThrows(InvariantViolation.class, () -> create(logDir, name), name);
        }
        assertEquals(List.of("", "logs"), tree(root));
    }
}

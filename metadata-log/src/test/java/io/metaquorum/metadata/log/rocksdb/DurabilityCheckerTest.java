package io.metaquorum.metadata.log.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of {@link DurabilityChecker} on small traces written by hand, in strace's format. */
class DurabilityCheckerTest {
    private static final String MARKER = "/d/acked";
    private static final String WAL = "/d/log/rocksdb/000004.log";
    private static final String SNAPSHOTS = "/d/log/snapshots";
    private static final String SNAPSHOT = "00000000000000000003-0000000001.checkpoint";
    private static final String PART = SNAPSHOTS + "/" + SNAPSHOT + ".1.part";

    private final List<String> lines = new ArrayList<>();

    @Test
    void acceptsAnAcknowledgementAfterTheSyncOfItsWalWrite() {
        walWrite(0);
        call("fdatasync(63<" + WAL + ">) = 0");
        acknowledge("ack 0");

        DurabilityReport report = check();
        assertEquals(List.of(), report.violations());
        assertEquals(1, report.offsetsAcknowledged());
    }

    @Test
    void rejectsAnAcknowledgementBeforeTheSync() {
        walWrite(0);
        acknowledge("ack 0");
        call("fdatasync(63<" + WAL + ">) = 0");

        assertEquals(List.of("offset 0: written to " + WAL + " at line 1, acknowledged at line 2"
                + " with no fsync or fdatasync of that file in between"), check().violations());
    }

    @Test
    void writeBackAFailedSyncOrASyncOfAnotherFileDoNotCount() {
        walWrite(0);
        call("sync_file_range(63<" + WAL + ">, 0, 0, 0) = 0");
        call("fdatasync(63<" + WAL + ">) = -1 EIO (Input/output error)");
        call("fsync(64</d/log/rocksdb/000005.log>) = 0");
        acknowledge("ack 0");

        assertEquals(1, check().violations().size());
    }

    @Test
    void aSyncThatStartedBeforeTheWriteReturnedDoesNotCoverIt() {
        lines.add("101 10:00:00.000001 write(63<" + WAL + ">, \"\\vmq-batch-0;\", 12 <unfinished ...>");
        lines.add("102 10:00:00.000002 fdatasync(63<" + WAL + ">) = 0");
        lines.add("101 10:00:00.000003 <... write resumed>) = 12");
        acknowledge("ack 0");

        assertEquals(1, check().violations().size());
    }

    @Test
    void rejectsAnOffsetNeverWrittenToAWal() {
        call("write(70</d/log/rocksdb/000007.sst>, \"\\vmq-batch-0;\", 12) = 12");
        call("fsync(70</d/log/rocksdb/000007.sst>) = 0");
        acknowledge("ack 0");

        assertEquals(List.of("offset 0: acknowledged at line 3 but written to no WAL file before it"),
                check().violations());
    }

    @Test
    void acceptsASnapshotSyncedBeforeItsRenameWithItsDirectorySyncedAfter() {
        snapshotWrite();
        call("fsync(68<" + PART + ">) = 0");
        rename();
        call("fsync(69<" + SNAPSHOTS + ">) = 0");
        acknowledge("snapshot " + SNAPSHOT);

        DurabilityReport report = check();
        assertEquals(List.of(), report.violations());
        assertEquals(1, report.snapshotsAcknowledged());
    }

    @Test
    void rejectsASnapshotRenamedBeforeItsFileWasSynced() {
        snapshotWrite();
        rename();
        call("fsync(68<" + SNAPSHOTS + "/" + SNAPSHOT + ">) = 0");
        call("fsync(69<" + SNAPSHOTS + ">) = 0");
        acknowledge("snapshot " + SNAPSHOT);

        assertEquals(List.of("snapshot " + SNAPSHOT + ": renamed at line 2 with no fsync or fdatasync of "
                + PART + " after its last write"), check().violations());
    }

    @Test
    void rejectsASnapshotWhoseDirectoryWasSyncedOnlyBeforeTheRename() {
        snapshotWrite();
        call("fsync(68<" + PART + ">) = 0");
        call("fsync(69<" + SNAPSHOTS + ">) = 0");
        rename();
        acknowledge("snapshot " + SNAPSHOT);

        assertEquals(List.of("snapshot " + SNAPSHOT + ": directory " + SNAPSHOTS
                + " not synced between the rename at line 4 and the acknowledgement at line 5"), check().violations());
    }

    @Test
    void resolvesARenameRelativeToItsDirectoryDescriptor() {
        snapshotWrite();
        call("fsync(68<" + PART + ">) = 0");
        call("renameat2(69<" + SNAPSHOTS + ">, \"" + SNAPSHOT + ".1.part\", 69<" + SNAPSHOTS + ">, \"" + SNAPSHOT
                + "\", 0) = 0");
        call("fsync(69<" + SNAPSHOTS + ">) = 0");
        acknowledge("snapshot " + SNAPSHOT);

        assertEquals(List.of(), check().violations());
    }

    @Test
    void rejectsASnapshotAcknowledgedWithoutARename() {
        acknowledge("snapshot " + SNAPSHOT);

        assertEquals(List.of("snapshot " + SNAPSHOT + ": acknowledged at line 1 but never renamed into place before it"),
                check().violations());
    }

    private void walWrite(long baseOffset) {
        String tag = SyncTracedWriter.tag(baseOffset);
        call("write(63<" + WAL + ">, \"\\225\\r\\0\\v" + tag + "\", " + (tag.length() + 4) + ") = " + (tag.length() + 4));
    }

    private void snapshotWrite() {
        call("write(68<" + PART + ">, \"snapshot content\", 16) = 16");
    }

    private void rename() {
        call("rename(\"" + PART + "\", \"" + SNAPSHOTS + "/" + SNAPSHOT + "\") = 0");
    }

    private void acknowledge(String text) {
        call("write(55<" + MARKER + ">, \"" + text + "\\n\", " + (text.length() + 1) + ") = " + (text.length() + 1));
    }

    private void call(String text) {
        lines.add("100 10:00:00." + String.format("%06d", lines.size()) + " " + text);
    }

    private DurabilityReport check() {
        return DurabilityChecker.check(SyscallTrace.parse(lines), MARKER);
    }
}

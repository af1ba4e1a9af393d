package io.metaquorum.metadata.snapshot.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.TestSnapshots;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.driver.RaftDriver;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.raft.transport.Transport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single-voter node on the RocksDB log with the production snapshot path: the loader
 * schedules snapshots, {@link SnapshotWriterThread} writes them off the driver and the
 * driver registers them (the log before each is deleted); after a restart the node loads
 * the snapshot plus the tail and its image equals a full replay of everything committed.
 */
class SnapshotRestartTest {
    /** Generous: only a hung test reaches it, never a timing assertion. */
    private static final long WAIT_MS = 60_000;
    private static final RaftConfig SINGLE_VOTER = new RaftConfig("test-cluster", 1, List.of(1),
            new RaftTimeouts(50, 200, 50, 0, 200, 10, 100), RaftLimits.DEFAULTS);
    private static final long SNAPSHOT_TRIGGER_BYTES = 20_000;

    @TempDir
    Path directory;
    private final AtomicReference<Throwable> fault = new AtomicReference<>();
    private final FaultHandler faultHandler = (message, cause) -> fault.compareAndSet(null, cause);
    private Node node;

    /** One incarnation: store, snapshot thread, loader (wrapped to record batches) and driver. */
    private final class Node implements AutoCloseable {
        final MetadataLogStore store = MetadataLogStore.open(directory, 0);
        final AtomicReference<RaftDriver> driver = new AtomicReference<>();
        final SnapshotWriterThread snapshots = new SnapshotWriterThread("[node 1] ", store.raftLog()::createSnapshot,
                (writer, registered) -> driver.get().registerSnapshot(writer, registered), new SnapshotLimits(7, 4 << 10), faultHandler);
        final MetadataLoader loader = new MetadataLoader("[node 1] ", SNAPSHOT_TRIGGER_BYTES, snapshots);
        final List<RecordBatch> committed = new CopyOnWriteArrayList<>();
        final List<OffsetAndEpoch> snapshotsLoaded = new CopyOnWriteArrayList<>();

        Node() {
            RaftListener recording = new RaftListener() {
                @Override
                public void handleCommit(List<RecordBatch> batches) {
                    committed.addAll(batches);
                    loader.handleCommit(batches);
                }

                @Override
                public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
                    snapshotsLoaded.add(snapshotId);
                    loader.handleLoadSnapshot(snapshotId, snapshot);
                }

                @Override
                public void handleLeaderChange(LeaderAndEpoch leader) {
                    loader.handleLeaderChange(leader);
                }

                @Override
                public void handleBecomeLeader(int epoch, long epochStartOffset) {
                    loader.handleBecomeLeader(epoch, epochStartOffset);
                }

                @Override
                public void handleResign(int epoch) {
                    loader.handleResign(epoch);
                }
            };
            Transport none = new Transport() {
                @Override
                public void send(io.metaquorum.raft.message.RaftMessage message) {
                    throw new AssertionError("a single voter sends nothing: " + message);
                }

                @Override
                public void close() {
                }
            };
            driver.set(new RaftDriver(SINGLE_VOTER, store.raftLog(), store.quorumStateStore(), sink -> none,
                    recording, SystemTime.INSTANCE, faultHandler, 42L));
            snapshots.start();
            driver.get().start();
        }

        RaftStatus status() {
            return driver.get().status();
        }

        void append(List<MetadataRecord> records) throws Exception {
            for (int from = 0; from < records.size(); from += 200) {
                List<ByteString> chunk = MetadataRecordCodec.encodeAll(records.subList(from,
                        Math.min(records.size(), from + 200)));
                driver.get().append(chunk).get(WAIT_MS, TimeUnit.MILLISECONDS);
            }
        }

        /** Everything appended is committed and applied, and no snapshot is in flight. */
        void awaitQuiet() {
            await(() -> status().appliedOffset() == status().logEndOffset()
                    && loader.image().committedEndOffset() == status().logEndOffset() && !snapshots.isBusy(),
                    "applied up to the log end");
        }

        @Override
        public void close() {
            driver.get().shutdown(5_000);
            snapshots.close();
            store.close();
        }
    }

    @AfterEach
    void closeNode() {
        if (node != null) {
            node.close();
        }
    }

    private void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (fault.get() != null) {
                throw new AssertionError("fault while waiting until " + what, fault.get());
            }
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    private List<String> snapshotFiles() throws IOException {
        try (Stream<Path> files = Files.list(directory.resolve("snapshots"))) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aRestartedNodeLoadsSnapshotAndTailIntoTheImageOfAFullReplay() throws Exception {
        node = new Node();
        await(() -> node.status().isLeader(), "the single voter leads");
        node.append(TestSnapshots.clusterRecords(6, 100, 10, 0));
        await(() -> node.status().logStartOffset() > 0, "a snapshot moved the log start");
        node.awaitQuiet();
        // A tail: small appends (far below the trigger) until records follow the latest snapshot.
        for (int topic = 100; node.status().logEndOffset() - node.status().logStartOffset() < 30; topic++) {
            assertTrue(topic < 120, "a tail stays after some snapshot");
            node.append(TestSnapshots.clusterRecords(6, 1, 10, topic));
            node.awaitQuiet();
        }
        long snapshotOffset = node.status().logStartOffset();
        assertEquals(1, snapshotFiles().size(), "only the latest snapshot is kept, nothing partial: "
                + snapshotFiles());
        List<RecordBatch> firstRun = new ArrayList<>(node.committed);
        MetadataImage before = node.loader.image();
        assertEquals(replay(firstRun), before, "the first run replayed everything from offset 0");
        node.close();

        node = new Node();
        await(() -> node.status().isLeader(), "the restarted voter leads");
        node.awaitQuiet();
        assertEquals(List.of(node.store.raftLog().latestSnapshot().orElseThrow()), node.snapshotsLoaded);
        assertEquals(snapshotOffset, node.snapshotsLoaded.get(0).offset());
        assertTrue(node.committed.get(0).getBaseOffset() == snapshotOffset, "the tail is replayed after the snapshot");
        List<RecordBatch> everything = new ArrayList<>(firstRun);
        long firstRunEnd = before.committedEndOffset();
        node.committed.stream().filter(batch -> batch.getBaseOffset() >= firstRunEnd).forEach(everything::add);
        assertEquals(replay(everything), node.loader.image(),
                "snapshot + tail gives the image of a full replay, equal as a value");
    }

    /** A fresh loader fed every batch from offset 0: the full replay. */
    private static MetadataImage replay(List<RecordBatch> batches) {
        MetadataLoader full = new MetadataLoader("", Long.MAX_VALUE, task -> false);
        full.handleCommit(batches);
        return full.image();
    }
}

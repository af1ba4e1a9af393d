package io.metaquorum.metadata.snapshot.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.raft.storage.InMemorySnapshotWriter;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.StorageException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The snapshot-writer thread: one snapshot at a time, written off the caller's thread, failures to the fault handler. */
class SnapshotWriterThreadTest {
    /** Generous: only a hung test reaches it. */
    private static final long WAIT_SECONDS = 30;

    private static SnapshotTask task(int features) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        for (int i = 0; i < features; i++) {
            delta.replay(MetadataRecordCodec.featureLevel("feature." + i, 1), i, 1);
        }
        return SnapshotTask.of(delta.apply(), 0L);
    }

    @Test
    void writesOffTheCallersThreadAndRefusesASecondUntilTheFirstIsRegistered() throws Exception {
        BlockingQueue<SnapshotWriter> driverTasks = new LinkedBlockingQueue<>();
        CompletableFuture<String> writerThread = new CompletableFuture<>();
        CompletableFuture<Throwable> fault = new CompletableFuture<>();
        InMemorySnapshotWriter[] written = new InMemorySnapshotWriter[1];
        try (SnapshotWriterThread thread = new SnapshotWriterThread("[node 1] ", id -> {
            writerThread.complete(Thread.currentThread().getName());
            written[0] = new InMemorySnapshotWriter(id);
            return written[0];
        }, (writer, registered) -> driverTasks.add(writer), new SnapshotLimits(10, 1 << 20), (message, cause) -> fault.complete(cause))) {
            thread.start();
            assertTrue(thread.trySchedule(task(100)));
            assertFalse(thread.trySchedule(task(101)), "one snapshot at a time");
            SnapshotWriter register = driverTasks.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(register != null, "the written snapshot is handed to the driver to register");
            assertTrue(written[0].isFrozen(), "complete and durable before registration");
            String writerThreadName = writerThread.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(writerThreadName.startsWith("snapshot-writer"), writerThreadName);
            assertTrue(thread.isBusy(), "busy until the driver registers it");
            assertFalse(thread.trySchedule(task(102)));
            assertFalse(fault.isDone());
        }
    }

    @Test
    void aFailedWriteGoesToTheFaultHandlerAndFreesTheThread() throws Exception {
        CompletableFuture<Throwable> fault = new CompletableFuture<>();
        BlockingQueue<SnapshotWriter> driverTasks = new LinkedBlockingQueue<>();
        try (SnapshotWriterThread thread = new SnapshotWriterThread("[node 1] ", id -> new FailingWriter(id),
                (writer, registered) -> driverTasks.add(writer), SnapshotLimits.DEFAULTS, (message, cause) -> fault.complete(cause))) {
            thread.start();
            assertTrue(thread.trySchedule(task(5)));
            assertInstanceOf(StorageException.class, fault.get(WAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(driverTasks.isEmpty(), "nothing registered");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (thread.isBusy() && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            assertFalse(thread.isBusy());
        }
        assertEquals(0, driverTasks.size());
    }

    /** A disk that fails every write. */
    private static final class FailingWriter implements SnapshotWriter {
        private final io.metaquorum.raft.storage.OffsetAndEpoch id;

        FailingWriter(io.metaquorum.raft.storage.OffsetAndEpoch id) {
            this.id = id;
        }

        @Override
        public io.metaquorum.raft.storage.OffsetAndEpoch id() {
            return id;
        }

        @Override
        public void append(byte[] chunk) {
            throw new StorageException("simulated write failure");
        }

        @Override
        public long sizeBytes() {
            return 0;
        }

        @Override
        public void freeze() {
            throw new StorageException("simulated sync failure");
        }

        @Override
        public boolean isFrozen() {
            return false;
        }

        @Override
        public void close() {
        }
    }
}

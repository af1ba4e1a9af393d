package io.metaquorum.metadata.snapshot.thread;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotScheduler;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a node's snapshots off the raft driver thread: the loader hands over an immutable
 * image ({@link SnapshotTask}); this thread streams it as records into a new snapshot
 * (a temporary file, batch by batch, then forced), and then asks the driver to register it
 * (the replica's {@code registerSnapshot}, a small task: rename and move the log start), after
 * which the log below it is deleted. One snapshot at a time: a request while one is being
 * written or registered is refused, and the loader asks again at its next commit.
 *
 * <p>A failure to write is a storage failure: it goes to the fault handler, which stops
 * the node, as any other storage failure does.
 *
 * <p>Invariant: {@code busy} is true from an accepted {@link #trySchedule} until the driver
 * has registered (or discarded) that snapshot, or its write failed.
 */
public final class SnapshotWriterThread implements SnapshotScheduler, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotWriterThread.class);
    private static final long CLOSE_WAIT_MS = 10_000;

    private final String logPrefix;
    private final Function<OffsetAndEpoch, SnapshotWriter> writers;
    private final SnapshotRegistration registration;
    private final SnapshotLimits limits;
    private final FaultHandler faultHandler;
    private final BlockingQueue<SnapshotTask> tasks = new ArrayBlockingQueue<>(1);
    private final AtomicBoolean busy = new AtomicBoolean();
    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param writers   a new snapshot writer by id (production: {@code RaftLog::createSnapshot},
     *                  thread-safe there)
     * @param registration hands a written snapshot to the replica (production: {@code RaftNode::registerSnapshot})
     */
    public SnapshotWriterThread(String logPrefix, Function<OffsetAndEpoch, SnapshotWriter> writers,
                                SnapshotRegistration registration, SnapshotLimits limits,
                                FaultHandler faultHandler) {
        this.logPrefix = logPrefix;
        this.writers = writers;
        this.registration = registration;
        this.limits = limits;
        this.faultHandler = faultHandler;
        this.thread = new Thread(this::run, "snapshot-writer-" + logPrefix.trim());
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    @Override
    public boolean trySchedule(SnapshotTask task) {
        if (closed || !busy.compareAndSet(false, true)) {
            return false;
        }
        boolean queued = tasks.offer(task);
        if (!queued) {
            busy.set(false);
        }
        return queued;
    }

    /** True while a snapshot is being written or waits for the driver to register it. */
    public boolean isBusy() {
        return busy.get();
    }

    private void run() {
        while (!closed) {
            SnapshotTask task;
            try {
                task = tasks.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                write(task);
            } catch (RuntimeException e) {
                busy.set(false);
                if (!closed) {
                    faultHandler.handleFault(logPrefix + "writing snapshot " + task.id() + " failed", e);
                }
            }
        }
    }

    private void write(SnapshotTask task) {
        long startNanos = System.nanoTime();
        SnapshotWriter writer = writers.apply(task.id());
        long records;
        try {
            records = task.writeTo(writer, limits);
        } catch (RuntimeException e) {
            writer.close();
            throw e;
        }
        long writtenMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        LOG.info("{}snapshot {} written: {} records, {} bytes in {} ms; registering it", logPrefix, task.id(),
                records, writer.sizeBytes(), writtenMs);
        try {
            registration.register(writer, registered -> onRegistered(writer, registered));
        } catch (RejectedExecutionException e) {
            // The driver is stopping or its queue is full: the loader asks again later.
            LOG.warn("{}snapshot {} not registered: {}", logPrefix, task.id(), e.getMessage());
            writer.close();
            busy.set(false);
        }
    }

    /** How a written snapshot reaches the replica; the outcome is told on the replica's thread. */
    @FunctionalInterface
    public interface SnapshotRegistration {
        void register(SnapshotWriter writer, Consumer<Boolean> registered);
    }

    /** On the driver thread. */
    private void onRegistered(SnapshotWriter writer, boolean registered) {
        try {
            if (!registered) {
                LOG.info("{}snapshot {} discarded: the log already starts at or after it", logPrefix, writer.id());
            }
        } finally {
            writer.close();
            busy.set(false);
        }
    }

    /** Stops the thread; a snapshot being written is abandoned (its temporary file is deleted on the next open). */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

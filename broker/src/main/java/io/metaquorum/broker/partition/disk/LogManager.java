package io.metaquorum.broker.partition.disk;

import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ReconcileResult;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.image.MetadataImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's LogManager: one thread that keeps the partition directories under
 * {@code log.dirs} in line with the newest metadata image, so materialization never blocks
 * replay (a slow disk delays directories, not the image). {@link #onImage} only records the
 * image and wakes the thread; images that arrive while a pass runs are coalesced, the next
 * pass takes the newest. The thread also wakes when the earliest stray falls due
 * ({@code delete.stale.topic.delay.ms}), and after a disk error it retries the newest image
 * with exponential backoff (the error is logged with its path; the node keeps running).
 *
 * <p>Lifecycle: {@link #start()} once, {@link #onImage} from any thread, {@link #close()}
 * once. Images should be offered from the point the broker has caught up with the log (an
 * image from before a topic was created makes its directory a stray; a later image that
 * assigns it again renames it back, but nothing is gained by the detour). An empty image
 * (nothing committed yet) is ignored: it says nothing about what was deleted.
 *
 * <p>A broken invariant or any other unexpected exception stops the thread and goes to the
 * fault handler. Every operation is crash-safe, so the thread is a daemon and a pass cut short
 * by the process exiting is finished by the next start's scan.
 */
public final class LogManager implements AutoCloseable {
    /** The first retry after a disk error; doubled on each further failure. */
    static final long RETRY_BACKOFF_MS_MIN = 100;
    /** The longest wait between two retries. */
    static final long RETRY_BACKOFF_MS_MAX = 10_000;
    /** How long {@link #close()} waits for a pass in progress before it returns anyway. */
    private static final long CLOSE_WAIT_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);

    /** Partition directories created at once in one batch (threads whose fsyncs overlap). */
    static final int SYNC_THREADS_MAX = 16;

    private final PartitionReconciler reconciler;
    private final AutoCloseable resources;
    private final Time time;
    private final String logPrefix;
    private final FaultHandler faultHandler;
    private final Thread thread;
    private final Object lock = new Object();
    /** The newest image offered, or null before the first. Guarded by {@code lock}. */
    private MetadataImage newest;
    /** Guarded by {@code lock}. */
    private boolean closing;
    /** The offset of the newest image whose directories are all in place; -1 before the first. */
    private volatile long appliedOffset = -1;
    /** The first disk error of the last pass, null when it was complete. */
    private volatile String lastDiskError;

    /**
     * @param brokerId                this broker's node id
     * @param logDirs                 {@code log.dirs}, existing and formatted
     * @param deleteStaleTopicDelayMs {@code delete.stale.topic.delay.ms}
     * @param time                    the clock; stray staging times and deadlines are wall-clock ms
     * @param logPrefix               node context for log lines, e.g. {@code "[node 4] "}
     * @param faultHandler            where a broken invariant goes
     */
    public LogManager(int brokerId, List<Path> logDirs, long deleteStaleTopicDelayMs, Time time, String logPrefix,
                      FaultHandler faultHandler) {
        this(new NioPartitionStore(SYNC_THREADS_MAX), brokerId, logDirs, deleteStaleTopicDelayMs, time, logPrefix,
                faultHandler);
    }

    private LogManager(NioPartitionStore store, int brokerId, List<Path> logDirs, long deleteStaleTopicDelayMs,
                       Time time, String logPrefix, FaultHandler faultHandler) {
        this(new PartitionReconciler(brokerId, logDirs, deleteStaleTopicDelayMs, store, logPrefix), brokerId, time,
                logPrefix, faultHandler, store);
    }

    /**
     * Runs {@code reconciler} (over whatever store it was given) on the LogManager thread and
     * closes {@code resources} when the thread ends.
     */
    LogManager(PartitionReconciler reconciler, int brokerId, Time time, String logPrefix, FaultHandler faultHandler,
               AutoCloseable resources) {
        this.reconciler = reconciler;
        this.resources = resources;
        this.time = time;
        this.logPrefix = logPrefix;
        this.faultHandler = faultHandler;
        this.thread = new Thread(this::run, "log-manager-" + brokerId);
        this.thread.setDaemon(true);
    }

    /** Starts the thread; once. */
    public void start() {
        synchronized (lock) {
            Invariants.check(!closing, "the LogManager is closed");
            thread.start();
        }
    }

    /** Offers the newest committed image; never blocks on the disk. Older or empty images are ignored. */
    public void onImage(MetadataImage image) {
        if (image.isEmpty()) {
            return;
        }
        synchronized (lock) {
            if (newest == null || image.lastCommittedOffset() > newest.lastCommittedOffset()) {
                newest = image;
                lock.notifyAll();
            }
        }
    }

    /** The offset of the newest image whose partition directories are all in place, -1 before any. */
    public long appliedOffset() {
        return appliedOffset;
    }

    /** The first disk error of the last pass (with its path), empty when the last pass was complete. */
    public Optional<String> lastDiskError() {
        return Optional.ofNullable(lastDiskError);
    }

    @Override
    public void close() {
        boolean neverStarted;
        synchronized (lock) {
            closing = true;
            lock.notifyAll();
            neverStarted = thread.getState() == Thread.State.NEW;
        }
        if (neverStarted) {
            closeResources();
            return;
        }
        if (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join(CLOSE_WAIT_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.warn("{}LogManager still busy after {} ms; leaving the pass to finish on its own", logPrefix,
                        CLOSE_WAIT_MS);
            }
        }
    }

    private void run() {
        try {
            LOG.info("{}LogManager started", logPrefix);
            loop();
            LOG.info("{}LogManager stopped at offset {}", logPrefix, appliedOffset);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable fault) {
            faultHandler.handleFault(logPrefix + "the LogManager stopped on a fault: " + fault, fault);
        } finally {
            closeResources();
        }
    }

    private void closeResources() {
        try {
            resources.close();
        } catch (Exception e) {
            LOG.warn("{}closing the partition store failed: {}", logPrefix, e.toString());
        }
    }

    private void loop() throws InterruptedException {
        MetadataImage reconciled = null;
        long strayDeadlineMs = Long.MAX_VALUE;
        long retryAtMs = -1;
        long backoffMs = RETRY_BACKOFF_MS_MIN;
        while (true) {
            MetadataImage image = awaitWork(reconciled, strayDeadlineMs, retryAtMs);
            if (image == null) {
                return;
            }
            long nowMs = time.milliseconds();
            ReconcileResult result = reconciler.reconcile(image, nowMs);
            if (result.complete()) {
                reconciled = image;
                appliedOffset = image.lastCommittedOffset();
                lastDiskError = null;
                strayDeadlineMs = result.nextDeadlineMs();
                retryAtMs = -1;
                backoffMs = RETRY_BACKOFF_MS_MIN;
            } else {
                lastDiskError = result.diskErrors().get(0);
                retryAtMs = nowMs + backoffMs;
                LOG.warn("{}partition directories for offset {} not all in place ({} disk errors); retrying in {} ms",
                        logPrefix, image.lastCommittedOffset(), result.diskErrors().size(), backoffMs);
                backoffMs = Math.min(2 * backoffMs, RETRY_BACKOFF_MS_MAX);
            }
        }
    }

    /**
     * Waits until there is a pass to run and returns the image to run it with, or null when
     * closing: a new image (unless a retry is pending, which waits for its backoff), a retry
     * that is due, or a stray deadline that has come.
     */
    private MetadataImage awaitWork(MetadataImage reconciled, long strayDeadlineMs, long retryAtMs)
            throws InterruptedException {
        synchronized (lock) {
            while (!closing) {
                if (newest == null) {
                    lock.wait();
                    continue;
                }
                if (retryAtMs < 0 && newest != reconciled) {
                    return newest;
                }
                long wakeAtMs = retryAtMs >= 0 ? retryAtMs : strayDeadlineMs;
                if (wakeAtMs == Long.MAX_VALUE) {
                    lock.wait();
                    continue;
                }
                long waitMs = wakeAtMs - time.milliseconds();
                if (waitMs <= 0) {
                    return newest;
                }
                lock.wait(waitMs);
            }
            return null;
        }
    }
}

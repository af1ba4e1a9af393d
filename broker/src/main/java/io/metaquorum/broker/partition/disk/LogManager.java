package io.metaquorum.broker.partition.disk;

import io.metaquorum.broker.partition.PartitionDirectories;
import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ReconcileResult;
import io.metaquorum.broker.partition.ScheduledReconciler;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's LogManager: one thread that keeps the partition directories under
 * {@code log.dirs} in line with the newest metadata image, so materialization never blocks
 * replay nor the broker's heartbeats (a slow disk delays directories, not the image).
 * {@link #onImage} only records the image and wakes the thread; images that arrive while a
 * pass runs are coalesced, their changes merged, and the next pass takes the newest with all
 * of them. When a pass runs, and with which
 * image, is decided by a {@link ScheduledReconciler} (the rules of {@code ReconcileSchedule},
 * which the simulator runs too): this class only gives it a thread and hands it images.
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
public final class LogManager implements PartitionDirectories, AutoCloseable {
    /** How long {@link #close()} waits for a pass in progress before it returns anyway. */
    private static final long CLOSE_WAIT_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);

    /** Files of one batch fsynced at once (threads whose fsyncs overlap). */
    static final int SYNC_THREADS_MAX = 16;

    /** Used by the LogManager thread only. */
    private final ScheduledReconciler scheduled;
    private final AutoCloseable resources;
    private final Time time;
    private final String logPrefix;
    private final FaultHandler faultHandler;
    private final Thread thread;
    private final Object lock = new Object();
    /**
     * The images offered and not yet taken by the thread, merged into one update (the newest
     * image, with the changes since the last one taken), or null. Guarded by {@code lock}.
     */
    private ImageUpdate offered;
    /** Guarded by {@code lock}. */
    private boolean closing;
    /** The newest image whose directories are all in place; null before the first. */
    private volatile MetadataImage applied;
    /** The first disk error of the last pass, null when it was complete. */
    private volatile String lastDiskError;
    /** The log dirs a full disk took offline, as of the last pass. */
    private volatile List<Path> offlineLogDirs = List.of();

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
        this(new PartitionReconciler(brokerId, logDirs, deleteStaleTopicDelayMs, PartitionReconciler.PUBLISH_DELAY_MS,
                store, logPrefix), brokerId, time,
                logPrefix, faultHandler, store);
    }

    /**
     * Runs {@code reconciler} (over whatever store it was given) on the LogManager thread and
     * closes {@code resources} when the thread ends.
     */
    LogManager(PartitionReconciler reconciler, int brokerId, Time time, String logPrefix, FaultHandler faultHandler,
               AutoCloseable resources) {
        this.scheduled = new ScheduledReconciler(reconciler, logPrefix, this::onPass);
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
    @Override
    public void onImage(ImageUpdate update) {
        if (update.image().isEmpty()) {
            return;
        }
        synchronized (lock) {
            if (offered == null || update.offset() > offered.offset()) {
                offered = offered == null ? update : offered.then(update);
                lock.notifyAll();
            }
        }
    }

    /** The work runs on the LogManager's own thread: nothing for the caller's. */
    @Override
    public long drive(long nowMs) {
        return Long.MAX_VALUE;
    }

    @Override
    public Optional<MetadataImage> reconciledImage() {
        return Optional.ofNullable(applied);
    }

    /** The offset of the newest image whose partition directories are all in place, -1 before any. */
    public long appliedOffset() {
        MetadataImage image = applied;
        return image == null ? -1 : image.lastCommittedOffset();
    }

    /** The first disk error of the last pass (with its path), empty when the last pass was complete. */
    public Optional<String> lastDiskError() {
        return Optional.ofNullable(lastDiskError);
    }

    /** The log dirs a full disk took offline (they stay so until the broker restarts); empty when none. */
    public List<Path> offlineLogDirs() {
        return offlineLogDirs;
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
            LOG.info("{}LogManager stopped at offset {}", logPrefix, appliedOffset());
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

    private void onPass(MetadataImage image, ReconcileResult result, long nowMs) {
        if (result.complete()) {
            applied = image;
        }
        lastDiskError = result.failed() ? result.diskErrors().get(0) : null;
        offlineLogDirs = List.copyOf(scheduled.offlineLogDirs());
    }

    private void loop() throws InterruptedException {
        long wakeAtMs = Long.MAX_VALUE;
        while (true) {
            ImageUpdate update;
            synchronized (lock) {
                if (!awaitWork(wakeAtMs)) {
                    return;
                }
                update = offered;
                offered = null;
            }
            if (update != null) {
                scheduled.onImage(update);
            }
            wakeAtMs = scheduled.drive(time.milliseconds());
        }
    }

    /**
     * Waits, holding {@code lock}, until an image is offered or {@code wakeAtMs} (the
     * schedule's next deadline) has come; false when closing.
     */
    private boolean awaitWork(long wakeAtMs) throws InterruptedException {
        while (!closing && offered == null) {
            if (wakeAtMs == Long.MAX_VALUE) {
                lock.wait();
                continue;
            }
            if (wakeAtMs == Long.MIN_VALUE) {
                return true;
            }
            long waitMs = wakeAtMs - time.milliseconds();
            if (waitMs <= 0) {
                return true;
            }
            lock.wait(waitMs);
        }
        return !closing;
    }
}

package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.MetadataImage;
import java.util.Optional;

/**
 * When a broker runs a {@link PartitionReconciler} pass, and with which image: the newest
 * image once it differs from the last one reconciled, again when the earliest stray falls due,
 * and after a disk error the newest image once a backoff has passed that doubles per failure in
 * a row (from {@link #RETRY_BACKOFF_MS_MIN} up to {@link #RETRY_BACKOFF_MS_MAX}); a new image
 * does not cut a pending backoff short, since the disk that failed is likely still failing.
 * An empty image (nothing committed yet) is never taken: it says nothing about what was
 * deleted, and reconciling with it would stage every directory as a stray.
 *
 * <p>Pure decisions, no I/O and no clock: the LogManager's thread and the simulator ask the
 * same object. Invariant: {@code retryAtMs >= 0} exactly when the last pass was incomplete.
 */
public final class ReconcileSchedule {
    /** The first retry after a disk error; doubled on each further failure. */
    public static final long RETRY_BACKOFF_MS_MIN = 100;
    /** The longest wait between two retries. */
    public static final long RETRY_BACKOFF_MS_MAX = 10_000;

    /** The newest image offered, null before the first non-empty one. */
    private MetadataImage newest;
    /** The image of the last complete pass, null before the first. */
    private MetadataImage reconciled;
    private long strayDeadlineMs = Long.MAX_VALUE;
    private long retryAtMs = -1;
    private long backoffMs = RETRY_BACKOFF_MS_MIN;

    /** Takes {@code image} as the newest when it is non-empty and newer than the newest; true when taken. */
    public boolean offer(MetadataImage image) {
        if (image.isEmpty() || (newest != null && image.lastCommittedOffset() <= newest.lastCommittedOffset())) {
            return false;
        }
        newest = image;
        return true;
    }

    /** The image to run a pass with at {@code nowMs}, empty when no pass is due. */
    public Optional<MetadataImage> due(long nowMs) {
        if (newest == null) {
            return Optional.empty();
        }
        boolean due = retryAtMs >= 0 ? nowMs >= retryAtMs : newest != reconciled || nowMs >= strayDeadlineMs;
        return due ? Optional.of(newest) : Optional.empty();
    }

    /**
     * When the next pass falls due if no image is offered meanwhile: {@link Long#MIN_VALUE} when
     * one is due already (compare it, never subtract from it), {@link Long#MAX_VALUE} for never.
     */
    public long nextDeadlineMs() {
        if (newest == null) {
            return Long.MAX_VALUE;
        }
        if (retryAtMs >= 0) {
            return retryAtMs;
        }
        return newest != reconciled ? Long.MIN_VALUE : strayDeadlineMs;
    }

    /**
     * Records the outcome of the pass run with {@code image} at {@code nowMs}; returns the
     * backoff before its retry when it was incomplete, 0 when it was complete.
     */
    public long onPass(MetadataImage image, ReconcileResult result, long nowMs) {
        if (result.complete()) {
            reconciled = image;
            strayDeadlineMs = result.nextDeadlineMs();
            retryAtMs = -1;
            backoffMs = RETRY_BACKOFF_MS_MIN;
            return 0;
        }
        long waitMs = backoffMs;
        retryAtMs = nowMs + waitMs;
        backoffMs = Math.min(2 * backoffMs, RETRY_BACKOFF_MS_MAX);
        return waitMs;
    }

    /** The image of the last complete pass, empty before the first. */
    public Optional<MetadataImage> reconciled() {
        return Optional.ofNullable(reconciled);
    }
}

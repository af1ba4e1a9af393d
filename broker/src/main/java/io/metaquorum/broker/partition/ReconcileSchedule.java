package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import java.util.Optional;

/**
 * When a broker runs a {@link PartitionReconciler} pass, and with which image: the newest
 * image once it differs from the last one reconciled, at once after a pass that stopped at the
 * creation bound with directories left to create, again when the earliest stray falls due,
 * and after a disk error the newest image once a backoff has passed that doubles per failure in
 * a row (from {@link #RETRY_BACKOFF_MS_MIN} up to {@link #RETRY_BACKOFF_MS_MAX}); a new image
 * does not cut a pending backoff short, since the disk that failed is likely still failing.
 * An empty image (nothing committed yet) is never taken: it says nothing about what was
 * deleted, and reconciling with it would stage every directory as a stray.
 *
 * <p>The images come as {@link ImageUpdate}s, and the ones offered between two passes are
 * merged ({@link ImageUpdate#then}), not replaced: the pass gets the newest image with
 * everything that changed since the image of the last complete pass, however many images it
 * skipped.
 *
 * <p>Pure decisions, no I/O and no clock: the LogManager's thread and the simulator ask the
 * same object. Invariants: {@code retryAtMs >= 0} exactly when the last pass failed;
 * {@code pending} holds the changes since the image of the last pass that did not fail (or
 * since the first image offered, before one): a pass that stopped at the creation bound
 * settles the changes up to its image, and the reconciler keeps what it left unfinished.
 */
public final class ReconcileSchedule {
    /** The first retry after a disk error; doubled on each further failure. */
    public static final long RETRY_BACKOFF_MS_MIN = 100;
    /** The longest wait between two retries. */
    public static final long RETRY_BACKOFF_MS_MAX = 10_000;

    /** The newest image offered, with the changes since the last complete pass; null before the first. */
    private ImageUpdate pending;
    /** The image of the last complete pass, null before the first. */
    private MetadataImage reconciled;
    private long strayDeadlineMs = Long.MAX_VALUE;
    private long retryAtMs = -1;
    private long backoffMs = RETRY_BACKOFF_MS_MIN;
    /** The last pass stopped at the creation bound: the next one is due at once, with the same image or newer. */
    private boolean creationsLeft;

    /** Takes {@code update} as the newest when its image is non-empty and newer than the newest; true when taken. */
    public boolean offer(ImageUpdate update) {
        if (update.image().isEmpty() || (pending != null && update.offset() <= pending.offset())) {
            return false;
        }
        pending = pending == null ? update : pending.then(update);
        return true;
    }

    /** The update to run a pass with at {@code nowMs}, empty when no pass is due. */
    public Optional<ImageUpdate> due(long nowMs) {
        if (pending == null) {
            return Optional.empty();
        }
        boolean due = retryAtMs >= 0 ? nowMs >= retryAtMs
                : creationsLeft || pending.image() != reconciled || nowMs >= strayDeadlineMs;
        return due ? Optional.of(pending) : Optional.empty();
    }

    /**
     * When the next pass falls due if no image is offered meanwhile: {@link Long#MIN_VALUE} when
     * one is due already (compare it, never subtract from it), {@link Long#MAX_VALUE} for never.
     */
    public long nextDeadlineMs() {
        if (pending == null) {
            return Long.MAX_VALUE;
        }
        if (retryAtMs >= 0) {
            return retryAtMs;
        }
        return creationsLeft || pending.image() != reconciled ? Long.MIN_VALUE : strayDeadlineMs;
    }

    /**
     * Records the outcome of the pass run with {@code image} at {@code nowMs}; returns the
     * backoff before its retry when it failed, 0 otherwise.
     */
    public long onPass(MetadataImage image, ReconcileResult result, long nowMs) {
        if (!result.failed()) {
            if (result.complete()) {
                reconciled = image;
            }
            if (pending.image() == image) {
                pending = ImageUpdate.unchanged(image);
            }
            creationsLeft = result.creationsLeft();
            strayDeadlineMs = result.nextDeadlineMs();
            retryAtMs = -1;
            backoffMs = RETRY_BACKOFF_MS_MIN;
            return 0;
        }
        creationsLeft = false;
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

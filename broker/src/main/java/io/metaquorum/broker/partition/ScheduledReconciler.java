package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link PartitionReconciler} run when its {@link ReconcileSchedule} says, on the caller's
 * thread: one object, single-threaded, whose {@link #drive} the LogManager's thread and the
 * simulator both call. Each pass is reported to a {@link PassListener} (progress for the
 * LogManager, checks for the simulator).
 */
public final class ScheduledReconciler implements PartitionDirectories {
    private static final Logger LOG = LoggerFactory.getLogger(ScheduledReconciler.class);

    /** Hears every pass, complete or not, after the schedule recorded it. */
    @FunctionalInterface
    public interface PassListener {
        PassListener NONE = (image, result, nowMs) -> { };

        void onPass(MetadataImage image, ReconcileResult result, long nowMs);
    }

    private final PartitionReconciler reconciler;
    private final ReconcileSchedule schedule = new ReconcileSchedule();
    private final String logPrefix;
    private final PassListener listener;
    private long passes;

    public ScheduledReconciler(PartitionReconciler reconciler, String logPrefix, PassListener listener) {
        this.reconciler = reconciler;
        this.logPrefix = logPrefix;
        this.listener = listener;
    }

    @Override
    public void onImage(ImageUpdate update) {
        schedule.offer(update);
    }

    /** Runs the pass due now, if any (at most one per call), and returns when the next falls due. */
    @Override
    public long drive(long nowMs) {
        Optional<ImageUpdate> due = schedule.due(nowMs);
        if (due.isPresent()) {
            MetadataImage image = due.get().image();
            passes++;
            ReconcileResult result = reconciler.reconcile(due.get(), nowMs);
            long retryInMs = schedule.onPass(image, result, nowMs);
            if (result.failed()) {
                LOG.warn("{}partition directories for offset {} not all in place ({} disk errors, the first: {});"
                        + " retrying in {} ms", logPrefix, image.lastCommittedOffset(), result.diskErrors().size(),
                        result.diskErrors().isEmpty() ? "none" : result.diskErrors().get(0), retryInMs);
            }
            listener.onPass(image, result, nowMs);
        }
        return schedule.nextDeadlineMs();
    }

    @Override
    public Optional<MetadataImage> reconciledImage() {
        return schedule.reconciled();
    }

    /** The log dirs a full disk took offline; see {@link PartitionReconciler#offlineLogDirs()}. */
    public List<Path> offlineLogDirs() {
        return reconciler.offlineLogDirs();
    }

    /** Passes run so far. */
    public long passes() {
        return passes;
    }
}

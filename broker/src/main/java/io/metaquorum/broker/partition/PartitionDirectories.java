package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import java.util.Optional;

/**
 * Where a broker's images go to become partition directories: run on the caller's thread
 * ({@link ScheduledReconciler}, which the simulator steps) or on a thread of their own (the
 * LogManager, when directory I/O is slow enough to hold up heartbeats).
 */
public interface PartitionDirectories {
    /**
     * The newest image the broker may reconcile with, and what changed in it since the image
     * offered before (whoever keeps only the newest merges them, {@link ImageUpdate#then});
     * must not block on the disk.
     */
    void onImage(ImageUpdate update);

    /**
     * Runs the directory work due at {@code nowMs} on the caller's thread and returns when it
     * is next due ({@link Long#MAX_VALUE} for never, or when the work runs on a thread of its own).
     */
    long drive(long nowMs);

    /** The image whose directories are all in place, empty before the first complete pass. */
    Optional<MetadataImage> reconciledImage();
}

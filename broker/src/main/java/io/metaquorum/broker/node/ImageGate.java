package io.metaquorum.broker.node;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import java.util.Optional;

/**
 * Holds a broker's images back from its partition directories until the broker has replayed
 * the log up to its current registration (the offset of its registration record, its broker
 * epoch). The image a restarted broker loads from its own disk may be hours old; reconciling
 * the directories with it would stage as strays partitions the current log still assigns here.
 * A new registration (a higher epoch) holds images back again until replay reaches it.
 *
 * <p>The images held back are merged ({@link ImageUpdate#then}): what goes through is the
 * newest image with everything that changed since the last one let through.
 *
 * <p>Invariant: {@code newest} is null before the first image, else the newest image offered
 * with the changes since the last one let through (or since the first offered); {@code released}
 * is null or an image no newer than {@code newest}'s.
 */
final class ImageGate {
    /** The newest image published, with the changes since the last one let through; null before the first. */
    private ImageUpdate newest;
    /** The last image let through, null before the first. */
    private MetadataImage released;

    /** A new image was published. */
    void offer(ImageUpdate update) {
        newest = newest == null ? update : newest.then(update);
    }

    /** The newest image published, empty before the first. */
    Optional<MetadataImage> newest() {
        return newest == null ? Optional.empty() : Optional.of(newest.image());
    }

    /**
     * The newest image with the changes since the last one let through, once, if it reaches
     * {@code brokerEpoch} and was not let through yet; empty while the broker is unregistered
     * ({@code brokerEpoch < 0}) or still behind.
     */
    Optional<ImageUpdate> release(long brokerEpoch) {
        if (newest == null || newest.image() == released || brokerEpoch < 0 || newest.offset() < brokerEpoch) {
            return Optional.empty();
        }
        ImageUpdate update = newest;
        released = update.image();
        newest = ImageUpdate.unchanged(released);
        return Optional.of(update);
    }
}

package io.metaquorum.broker.node;

import io.metaquorum.metadata.image.MetadataImage;
import java.util.Optional;

/**
 * Holds a broker's images back from its partition directories until the broker has replayed
 * the log up to its current registration (the offset of its registration record, its broker
 * epoch). The image a restarted broker loads from its own disk may be hours old; reconciling
 * the directories with it would stage as strays partitions the current log still assigns here.
 * A new registration (a higher epoch) holds images back again until replay reaches it.
 *
 * <p>Invariant: {@code released} is null or an image no newer than {@code newest}.
 */
final class ImageGate {
    /** The newest image published, null before the first. */
    private MetadataImage newest;
    /** The last image let through, null before the first. */
    private MetadataImage released;

    /** A new image was published. */
    void offer(MetadataImage image) {
        if (newest == null || image.lastCommittedOffset() >= newest.lastCommittedOffset()) {
            newest = image;
        }
    }

    /** The newest image published, empty before the first. */
    Optional<MetadataImage> newest() {
        return Optional.ofNullable(newest);
    }

    /**
     * The newest image, once, if it reaches {@code brokerEpoch} and was not let through yet;
     * empty while the broker is unregistered ({@code brokerEpoch < 0}) or still behind.
     */
    Optional<MetadataImage> release(long brokerEpoch) {
        if (newest == null || newest == released || brokerEpoch < 0 || newest.lastCommittedOffset() < brokerEpoch) {
            return Optional.empty();
        }
        released = newest;
        return Optional.of(newest);
    }
}

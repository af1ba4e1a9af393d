package io.metaquorum.metadata.image;

import io.metaquorum.common.invariant.Invariants;

/**
 * An image, with what changed in its topics since an earlier image of the same log, the one at
 * {@code baseOffset} (Kafka's loader hands its publishers the delta with the image in the same
 * way). A {@link io.metaquorum.metadata.loader.MetadataLoader} makes one after each commit and
 * snapshot load; a broker hands it on to its partition directories, which then look at what
 * changed instead of walking the whole image.
 *
 * <p>The changes sit beside the image, never in it: {@link MetadataImage#equals} is a function
 * of the log up to the image's offset; {@link TopicChanges} depend on the path a node took.
 *
 * <p>Whatever keeps only the newest update offered to it (a one-slot mailbox, a gate, a
 * schedule) merges the updates with {@link #then} instead of replacing one by the next, so
 * that the changes of an image it skipped are kept: the committed log is linear, so what
 * changed from A to C is what changed from A to B and from B to C.
 *
 * <p>Invariant: {@code baseOffset <= image.lastCommittedOffset()}, and every topic that
 * differs between the image at {@code baseOffset} and {@code image} is in {@code topics}
 * (unless they are {@link TopicChanges#UNKNOWN}).
 *
 * @param image      the new image
 * @param baseOffset the offset of the image the changes are counted from (-1: the empty image)
 * @param topics     what changed in the topics since then
 */
public record ImageUpdate(MetadataImage image, long baseOffset, TopicChanges topics) {
    public ImageUpdate {
        Invariants.check(baseOffset <= image.lastCommittedOffset(), "changes since offset %d cannot lead to the image "
                + "at offset %d", baseOffset, image.lastCommittedOffset());
    }

    /** {@code image}, with nothing changed since itself: where a consumer stands once it has applied it. */
    public static ImageUpdate unchanged(MetadataImage image) {
        return new ImageUpdate(image, image.lastCommittedOffset(), TopicChanges.NONE);
    }

    /**
     * {@code image}, replacing whatever came before it whole (a snapshot load): its changes
     * are {@link TopicChanges#UNKNOWN}, and a consumer compares all of it once.
     */
    public static ImageUpdate loaded(MetadataImage image) {
        return new ImageUpdate(image, MetadataImage.EMPTY.lastCommittedOffset(), TopicChanges.UNKNOWN);
    }

    /** The offset of the image. */
    public long offset() {
        return image.lastCommittedOffset();
    }

    /**
     * This update, then {@code later}: {@code later}'s image with the changes since this one's
     * base. A later update that is no newer (the same image published twice) leaves this one as
     * it is. {@code later} must start at or before this image: the changes in a gap between
     * the two would be lost, which is a bug in whoever handed the updates over.
     */
    public ImageUpdate then(ImageUpdate later) {
        if (later.offset() <= offset()) {
            return this;
        }
        Invariants.check(later.baseOffset() <= offset(), "an update with the changes since offset %d cannot follow "
                + "the image at offset %d: the changes in between would be lost", later.baseOffset(), offset());
        return new ImageUpdate(later.image(), baseOffset, topics.union(later.topics()));
    }
}

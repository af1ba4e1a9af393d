package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.sim.check.CheckFailure;

/**
 * A node's image at offset O equals the committed log replayed to O (docs/architecture.md §10: the
 * controller image equals a replay of the committed log; each broker's image at O equals the
 * controller's at O). Catches a node that replays a record twice or skips one, a snapshot
 * that loads into a different image, a broker whose image is ahead of what committed.
 */
public final class ImageReplayCheck {
    public static final String NAME = "image-equals-replay";

    private final ReplayedLog log;

    public ImageReplayCheck(ReplayedLog log) {
        this.log = log;
    }

    /** Judges {@code image}, which node {@code nodeId} holds now. */
    public void observe(int nodeId, MetadataImage image) {
        if (image.isEmpty()) {
            return;
        }
        long offset = image.lastCommittedOffset();
        if (offset > log.last().lastCommittedOffset()) {
            throw new CheckFailure(NAME, "node " + nodeId + " has an image at offset " + offset
                    + ", past the committed log's end at " + log.last().lastCommittedOffset());
        }
        MetadataImage replayed = log.at(offset);
        if (replayed == null) {
            // A node's image always ends where a committed batch ends; the replay keeps every such end not forgotten.
            throw new CheckFailure(NAME, "node " + nodeId + " has an image at offset " + offset
                    + ", where no committed batch ends (or it was judged before and forgotten)");
        }
        if (!replayed.equals(image)) {
            throw new CheckFailure(NAME, "node " + nodeId + " image at offset " + offset
                    + " differs from the committed log replayed to it: " + ImageDiff.describe(replayed, image));
        }
    }
}

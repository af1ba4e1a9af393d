package io.metaquorum.metadata.snapshot;

import io.metaquorum.metadata.image.MetadataImage;

/**
 * A snapshot replayed into an image.
 *
 * @param image                  the image the snapshot holds
 * @param records                the data records it held
 * @param lastContainedLogTimeMs the append time of the last log record it covers (its header's)
 */
public record LoadedSnapshot(MetadataImage image, long records, long lastContainedLogTimeMs) {
}

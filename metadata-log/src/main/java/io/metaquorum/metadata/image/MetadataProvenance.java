package io.metaquorum.metadata.image;

/**
 * Where an image stands in the committed log: the offset and epoch of the last record it
 * covers (data or control). Part of the image because it is a function of the log alone.
 *
 * @param lastOffset offset of the last record applied, -1 when none
 * @param lastEpoch  epoch of that record, 0 when none
 */
public record MetadataProvenance(long lastOffset, int lastEpoch) {
    public static final MetadataProvenance EMPTY = new MetadataProvenance(-1, 0);
}

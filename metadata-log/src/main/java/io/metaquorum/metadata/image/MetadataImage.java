package io.metaquorum.metadata.image;

import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The immutable state the committed metadata log describes (Kafka's {@code MetadataImage}):
 * features, brokers, topics with their partitions, configs, ACLs and SCRAM credentials, and where in the log
 * the image stands. A new image comes from {@link MetadataDelta#apply}; nothing here changes
 * in place (docs/architecture.md §5).
 *
 * <p>Invariant: the image at offset O is a function of the committed log up to O alone. It
 * holds nothing that depends on how it was reached (full replay, snapshot plus tail,
 * controller or broker) — no counters, no leader, no append times — so {@code equals} (value
 * equality, all the way down) holds between images of different nodes at the same offset.
 */
public record MetadataImage(MetadataProvenance provenance, FeaturesImage features, ClusterImage cluster,
                            TopicsImage topics, ConfigurationsImage configs, AclsImage acls, ScramImage scram) {
    public static final MetadataImage EMPTY = new MetadataImage(MetadataProvenance.EMPTY, FeaturesImage.EMPTY,
            ClusterImage.EMPTY, TopicsImage.EMPTY, ConfigurationsImage.EMPTY, AclsImage.EMPTY, ScramImage.EMPTY);

    /** True before anything was committed: the log (and any snapshot) is empty. */
    public boolean isEmpty() {
        return provenance.lastOffset() < 0;
    }

    /** Offset of the last record applied, -1 when none. */
    public long lastCommittedOffset() {
        return provenance.lastOffset();
    }

    /** Epoch of the last record applied, 0 when none. */
    public int lastCommittedEpoch() {
        return provenance.lastEpoch();
    }

    /** One past the last applied offset: where a snapshot of this image ends. */
    public long committedEndOffset() {
        return provenance.lastOffset() + 1;
    }

    /**
     * The image written out as records, in a fixed order (features by name, brokers by id,
     * topics by name each followed by its partitions by index, configs by resource then key,
     * ACLs by id, SCRAM credentials by user then mechanism), so that replaying them into an empty image gives an equal image (docs/architecture.md
     * §5: a snapshot is an image written as records). Deterministic across JVMs: nothing is
     * written in hash order.
     */
    public List<MetadataRecord> toRecords() {
        List<MetadataRecord> records = new ArrayList<>();
        forEachRecord(records::add);
        return records;
    }

    /**
     * The records of {@link #toRecords()}, in the same order, handed to {@code out} one at a
     * time as they are made, so that writing a snapshot never holds them all at once.
     */
    public void forEachRecord(Consumer<MetadataRecord> out) {
        ImageRecords.features(features, out);
        ImageRecords.brokers(cluster, out);
        ImageRecords.topics(topics, out);
        ImageRecords.configs(configs, out);
        ImageRecords.acls(acls, out);
        ImageRecords.scram(scram, out);
    }
}

package io.metaquorum.metadata.snapshot;

/**
 * How snapshot files are cut: at most {@code batchRecordsMax} records and about
 * {@code batchBytesMax} record bytes per batch (each batch is one chunk written, so this
 * bounds the memory a snapshot write takes).
 */
public record SnapshotLimits(int batchRecordsMax, int batchBytesMax) {
    /** 1 MiB batches, as Kafka's {@code controller.quorum.fetch.snapshot.max.bytes} chunks. */
    public static final SnapshotLimits DEFAULTS = new SnapshotLimits(10_000, 1 << 20);

    public SnapshotLimits {
        if (batchRecordsMax <= 0 || batchBytesMax <= 0) {
            throw new IllegalArgumentException("snapshot batch limits must be positive, got " + batchRecordsMax
                    + " records and " + batchBytesMax + " bytes");
        }
    }
}

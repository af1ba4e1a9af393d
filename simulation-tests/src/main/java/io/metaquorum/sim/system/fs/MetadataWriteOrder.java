package io.metaquorum.sim.system.fs;

/**
 * The steps {@link SimPartitionStore} takes to write a new partition directory's
 * {@code partition.metadata}.
 */
public enum MetadataWriteOrder {
    /**
     * What {@code NioPartitionStore} does (as Kafka does for one file): mkdir, write
     * {@code partition.metadata.tmp}, fsync it, rename it to {@code partition.metadata}; the log
     * dir is fsynced once per batch.
     */
    TEMP_SYNC_RENAME_SYNC,
    /**
     * A broken variant that skips the fsync of the temporary file: the rename can become durable
     * before the bytes do, so a crash can leave an empty or torn {@code partition.metadata}.
     * Exists so a test can show the simulated disk catches it.
     */
    BROKEN_RENAME_BEFORE_SYNC
}

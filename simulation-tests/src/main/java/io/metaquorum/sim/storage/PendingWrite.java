package io.metaquorum.sim.storage;

import io.metaquorum.protocol.RecordBatch;

/** A log write the process made since its last sync: lost, kept or torn by a crash. */
sealed interface PendingWrite {
    record Append(RecordBatch batch) implements PendingWrite {
    }

    record Truncate(long offset) implements PendingWrite {
    }

    default void applyTo(DurableLog log) {
        if (this instanceof Append append) {
            log.append(append.batch());
        } else if (this instanceof Truncate truncate) {
            log.truncateTo(truncate.offset());
        }
    }
}

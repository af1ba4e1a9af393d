package io.metaquorum.metadata.controller;

import io.metaquorum.protocol.MetadataRecord;
import java.util.List;

/**
 * What a controller operation decided (Kafka's {@code ControllerResult}): the records to
 * append, and the response to give once they commit. Deciding changes nothing; the state
 * moves only when the records are replayed (docs/engineering-rules.md rule 4).
 *
 * <p>{@code atomic} records go in one atomic append or not at all (a topic with its
 * partitions). Non-atomic records are each whole on their own (a broker fenced, then one
 * PartitionChangeRecord per partition it left) and may be appended in several batches, so
 * fencing a broker of a million partitions is not refused for its size.
 */
public record ControllerResult<T>(List<MetadataRecord> records, T response, boolean atomic) {
    public ControllerResult {
        records = List.copyOf(records);
    }

    public static <T> ControllerResult<T> of(List<MetadataRecord> records, T response) {
        return new ControllerResult<>(records, response, true);
    }

    /** Records that may be split across batches, in order; see the class comment. */
    public static <T> ControllerResult<T> nonAtomic(List<MetadataRecord> records, T response) {
        return new ControllerResult<>(records, response, false);
    }

    public static <T> ControllerResult<T> withoutRecords(T response) {
        return new ControllerResult<>(List.of(), response, true);
    }
}

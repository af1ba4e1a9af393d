package io.metaquorum.metadata.controller;

import io.metaquorum.protocol.MetadataRecord;
import java.util.List;

/**
 * What a controller operation decided (Kafka's {@code ControllerResult}): the records to
 * append as one atomic batch, and the response to give once they commit. Deciding changes
 * nothing; the state moves only when the records are replayed (STYLE.md principle 4).
 */
public record ControllerResult<T>(List<MetadataRecord> records, T response) {
    public ControllerResult {
        records = List.copyOf(records);
    }

    public static <T> ControllerResult<T> of(List<MetadataRecord> records, T response) {
        return new ControllerResult<>(records, response);
    }

    public static <T> ControllerResult<T> withoutRecords(T response) {
        return new ControllerResult<>(List.of(), response);
    }
}

package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.ErrorCode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The topic-config catalogue of docs/kafka-compatibility.md: every entry, its default, and one bad value per rule. */
class TopicConfigCatalogTest {
    @Test
    void theCatalogueHoldsKafkasThirtySevenTopicConfigsAndEachDefaultIsValid() {
        assertEquals(37, TopicConfigCatalog.entriesByName().size());
        TopicConfigCatalog.entriesByName().values().forEach(entry -> assertEquals(Optional.empty(),
                TopicConfigCatalog.check(entry.name(), entry.defaultValue()), entry.name()));
    }

    @Test
    void badValuesAreInvalidConfigNamingTheKey() {
        List<List<String>> bad = List.of(
                List.of("compression.gzip.level", "0", "between 1 and 9, or -1"),
                List.of("compression.lz4.level", "18", "no more than 17"),
                List.of("compression.zstd.level", "-131073", "at least -131072"),
                List.of("compression.type", "brotli", "String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer"),
                List.of("max.decompressed.message.bytes", "2147483640", "no more than 2147483639"),
                List.of("max.message.bytes", "2147483648", "Not a number of type INT"),
                List.of("min.cleanable.dirty.ratio", "half", "Not a number of type DOUBLE"),
                List.of("message.timestamp.type", "createtime", "CreateTime, LogAppendTime"),
                List.of("min.cleanable.dirty.ratio", "1.5", "no more than 1.0"),
                List.of("min.cleanable.dirty.ratio", "NaN", "at least 0.0"),
                List.of("segment.bytes", "1048575", "at least 1048576"),
                List.of("segment.ms", "0", "at least 1"),
                List.of("local.retention.ms", "-3", "at least -2"),
                List.of("unclean.leader.election.enable", "yes", "true or false"),
                List.of("follower.replication.throttled.replicas", "0-1", "partitionId:brokerId"),
                List.of("cleanup.policy", "compact,forever", "compact, delete"));
        for (List<String> c : bad) {
            var error = TopicConfigCatalog.check(c.get(0), c.get(1)).orElseThrow(() -> new AssertionError(c));
            assertEquals(ErrorCode.INVALID_CONFIG, error.code());
            assertTrue(error.message().startsWith("Invalid value " + c.get(1) + " for configuration " + c.get(0) + ": "),
                    error.message());
            assertTrue(error.message().contains(c.get(2)), error.message());
        }
    }

    @Test
    void goodValuesPass() {
        for (List<String> c : List.of(List.of("compression.gzip.level", "-1"), List.of("compression.gzip.level", "9"),
                List.of("follower.replication.throttled.replicas", "*"), List.of("retention.bytes", "-5"),
                List.of("leader.replication.throttled.replicas", "0:1, 1:2"), List.of("preallocate", "TRUE"),
                List.of("cleanup.policy", "delete"))) {
            assertEquals(Optional.empty(), TopicConfigCatalog.check(c.get(0), c.get(1)), c.toString());
        }
    }
}

package io.metaquorum.metadata.log.rocksdb;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RecordBatches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Batches with recognizable content, and directory clean-up, for the log tests. */
final class TestBatches {
    private TestBatches() {
    }

    static RecordBatch batch(long baseOffset, int epoch, int records, int recordBytes) {
        List<ByteString> values = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            String text = "o" + (baseOffset + i) + "e" + epoch + "-";
            values.add(ByteString.copyFromUtf8(text + "x".repeat(Math.max(0, recordBytes - text.length()))));
        }
        return RecordBatches.build(baseOffset, epoch, 1_000 + baseOffset, false, values);
    }

    static RecordBatch batch(long baseOffset, int epoch, int records) {
        return batch(baseOffset, epoch, records, 8);
    }

    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

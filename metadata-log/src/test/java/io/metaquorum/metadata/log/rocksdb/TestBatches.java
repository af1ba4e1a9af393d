package io.metaquorum.metadata.log.rocksdb;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;

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
}

package io.metaquorum.raft.snapshot;

import com.google.protobuf.ByteString;
import java.util.List;

/**
 * What a snapshot file holds once its header, batches and footer have been verified.
 *
 * @param epoch                  the epoch every batch of the snapshot carries (the snapshot id's epoch)
 * @param lastContainedLogTimeMs the append time of the last log record the snapshot covers
 * @param records                the data records, in order; control records excluded
 */
public record DecodedSnapshot(int epoch, long lastContainedLogTimeMs, List<ByteString> records) {
    public DecodedSnapshot {
        records = List.copyOf(records);
    }
}

package io.metaquorum.metadata.snapshot;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ControlRecord;
import java.util.List;

/**
 * A snapshot replayed into an image.
 *
 * @param image                  the image the snapshot holds
 * @param records                the data records it held
 * @param lastContainedLogTimeMs the append time of the last log record it covers (its header's)
 * @param raftRecords            raft's KRaftVersionRecord and VotersRecord it held (KIP-853)
 */
public record LoadedSnapshot(MetadataImage image, long records, long lastContainedLogTimeMs,
                             List<ControlRecord> raftRecords) {
}

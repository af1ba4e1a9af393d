package io.metaquorum.metadata.controller;

import io.metaquorum.protocol.MetadataRecord;
import java.util.List;

/**
 * Where the controller's records go: one atomic append to raft pinned to the epoch they were
 * decided in. The driver of the controller reports the outcome back
 * ({@link QuorumController#handleAppendAccepted} or {@link QuorumController#handleAppendRefused}).
 */
public interface AppendSink {
    /** Appends {@code records} in {@code epoch}; the last must land at {@code expectedLastOffset}. */
    void append(int epoch, long expectedLastOffset, List<MetadataRecord> records);

    /** The controller gives up leading {@code epoch} (an append it could not make): raft should resign it. */
    void resign(int epoch);
}

package io.metaquorum.metadata.controller;

import com.google.protobuf.ByteString;
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

    /**
     * Appends raft's own control records (a VotersRecord) in {@code epoch}, in the order of the
     * controller's appends; the last must land at {@code expectedLastOffset}.
     */
    void appendControl(int epoch, long expectedLastOffset, List<ByteString> records);

    /** The controller gives up leading {@code epoch} (an append it could not make): raft should resign it. */
    void resign(int epoch);
}

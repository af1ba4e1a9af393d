package io.metaquorum.raft.message;

import com.google.protobuf.Message;

/** The answer to the {@link RaftRequest} with the same correlation id. */
public record RaftResponse(int sourceId, int destinationId, long correlationId, Message payload)
        implements RaftMessage {
}

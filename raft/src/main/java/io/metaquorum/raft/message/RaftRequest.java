package io.metaquorum.raft.message;

import com.google.protobuf.Message;

/**
 * A request between replicas, or from a client (source {@link #CLIENT}). The payload is one
 * of the Raft request protos (Vote, BeginQuorumEpoch, EndQuorumEpoch, Fetch, FetchSnapshot,
 * DescribeQuorum).
 */
public record RaftRequest(int sourceId, int destinationId, long correlationId, Message payload)
        implements RaftMessage {
    /** The source id of a request from a tool or client rather than a replica. */
    public static final int CLIENT = -1;
}

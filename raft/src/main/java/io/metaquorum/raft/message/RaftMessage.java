package io.metaquorum.raft.message;

/**
 * Everything that goes into or comes out of the consensus core. Requests and responses
 * are matched by {@code correlationId}, which the sending side assigns.
 */
public sealed interface RaftMessage permits RaftRequest, RaftResponse, RequestFailure {
    long correlationId();
}

package io.metaquorum.raft.transport;

import io.metaquorum.raft.message.RaftMessage;

/**
 * The network as the driver sees it. {@link #send} never blocks: an outbound
 * {@code RaftRequest} goes to its destination and its answer (or a {@code RequestFailure})
 * comes back through the {@link InboundSink}; an outbound {@code RaftResponse} answers a
 * request that arrived through the sink.
 */
public interface Transport extends AutoCloseable {
    void send(RaftMessage message);

    @Override
    void close();

    /** Where a transport delivers what arrives. Called from transport threads. */
    @FunctionalInterface
    interface InboundSink {
        void deliver(RaftMessage message);
    }
}

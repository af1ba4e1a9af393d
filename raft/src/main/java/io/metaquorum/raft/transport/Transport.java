package io.metaquorum.raft.transport;

import io.metaquorum.raft.message.RaftMessage;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The network as the driver sees it. {@link #send} never blocks: an outbound
 * {@code RaftRequest} goes to its destination and its answer (or a {@code RequestFailure})
 * comes back through the {@link InboundSink}; an outbound {@code RaftResponse} answers a
 * request that arrived through the sink.
 */
public interface Transport extends AutoCloseable {
    void send(RaftMessage message);

    /**
     * Where the voters listen, as the voter set in the log has them (KIP-853): a controller
     * added with AddVoter that no configuration names, or one whose listener moved and that
     * updated its entry. These addresses win over the configured ones. A transport that
     * reaches peers by id alone ignores it.
     */
    default void learnPeers(Map<Integer, InetSocketAddress> addresses) {
    }

    @Override
    void close();

    /** Where a transport delivers what arrives. Called from transport threads. */
    @FunctionalInterface
    interface InboundSink {
        void deliver(RaftMessage message);
    }
}

package io.metaquorum.raft.transport.grpc.logging;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.ServerTransportFilter;
import java.net.SocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connections gRPC has called ready (the client's HTTP/2 preface and settings arrived,
 * after TLS where there is TLS). A connection that ends without being here was refused.
 * gRPC tells a filter when a connection is ready but not which Netty channel it is, so the
 * connection is known by its (local, remote) address pair, which the watcher of that channel
 * also holds. An entry lives until its channel's watcher takes it out on close, so the set
 * is bounded by the open connections.
 */
final class ReadyConnections extends ServerTransportFilter {
    private final Set<ConnectionAddresses> ready = ConcurrentHashMap.newKeySet();

    @Override
    public Attributes transportReady(Attributes attributes) {
        SocketAddress local = attributes.get(Grpc.TRANSPORT_ATTR_LOCAL_ADDR);
        SocketAddress remote = attributes.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        if (local != null && remote != null) {
            ready.add(new ConnectionAddresses(local, remote));
        }
        return attributes;
    }

    /** Whether the connection was ready; forgets it. Called once per connection, when it closes. */
    boolean remove(ConnectionAddresses connection) {
        return ready.remove(connection);
    }

    /** Both ends of one TCP connection. */
    record ConnectionAddresses(SocketAddress local, SocketAddress remote) {
    }
}

package io.metaquorum.raft.transport.grpc;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where one replica listens and how it reaches the others.
 *
 * @param localId          this replica's node id: the destination of every inbound request
 * @param listeners        addresses the Raft service is bound on; port 0 picks a free port
 *                         (read it back with {@link GrpcRaftTransport#boundAddresses()}); empty
 *                         for a client-only transport (no server)
 * @param peers            node id to address, for outbound requests; the local id may be absent
 * @param requestTimeoutMs deadline of an outbound request; a Fetch gets its {@code max_wait_ms}
 *                         on top, since the leader may park it that long
 */
public record GrpcTransportConfig(int localId, List<InetSocketAddress> listeners, Map<Integer, InetSocketAddress> peers,
                                  int requestTimeoutMs, GrpcConnectionSettings connection) {
    public GrpcTransportConfig {
        listeners = List.copyOf(listeners);
        peers = Map.copyOf(new TreeMap<>(peers));
    }

    /** Throws {@link IllegalArgumentException} naming the first bad value. */
    public GrpcTransportConfig validate() {
        if (localId < 0) {
            throw new IllegalArgumentException("local id must be >= 0, got " + localId);
        }
        if (requestTimeoutMs <= 0) {
            throw new IllegalArgumentException("requestTimeoutMs must be > 0, got " + requestTimeoutMs);
        }
        peers.keySet().stream().filter(id -> id < 0).findFirst().ifPresent(id -> {
            throw new IllegalArgumentException("peer ids must be >= 0, got " + id);
        });
        connection.validate();
        return this;
    }
}

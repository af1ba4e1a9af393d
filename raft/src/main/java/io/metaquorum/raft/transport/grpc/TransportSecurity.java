package io.metaquorum.raft.transport.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import java.util.Objects;

/**
 * How a node's gRPC connections are secured: the credentials its server accepts calls with
 * and the ones its channels call with. Both come from the node's listener configuration (the
 * node runtime builds TLS ones; see docs/security.md), so that the raft transport, the
 * forwarder and the broker's lifecycle calls all use one setting.
 *
 * @param protocol what the listener speaks, as an operator names it ({@code PLAINTEXT}, {@code SSL})
 */
public record TransportSecurity(String protocol, ServerCredentials server, ChannelCredentials channel) {
    public static final TransportSecurity PLAINTEXT = new TransportSecurity("PLAINTEXT",
            InsecureServerCredentials.create(), InsecureChannelCredentials.create());

    public TransportSecurity {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(channel, "channel");
    }

    public boolean isPlaintext() {
        return server instanceof InsecureServerCredentials;
    }
}

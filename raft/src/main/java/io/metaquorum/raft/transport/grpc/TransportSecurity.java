package io.metaquorum.raft.transport.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import java.util.Objects;

/**
 * How a node's gRPC connections are secured: the credentials its server accepts calls with,
 * the ones its channels call with, and the interceptor that tells every call who made it.
 * All come from the node's listener configuration (the node runtime builds them; see
 * docs/security.md), so that the raft transport, the forwarder and the broker's lifecycle
 * calls use one setting.
 *
 * @param protocol what the listener speaks, as an operator names it ({@code PLAINTEXT}, {@code SSL})
 * @param identity runs first on every inbound call, raft's included: puts the caller's identity
 *                 in the call's context, or refuses the call
 */
public record TransportSecurity(String protocol, ServerCredentials server, ChannelCredentials channel,
                                ServerInterceptor identity) {
    /** Plaintext, with no identity attached to calls. */
    public static final TransportSecurity PLAINTEXT = new TransportSecurity("PLAINTEXT",
            InsecureServerCredentials.create(), InsecureChannelCredentials.create(), TransportSecurity::passThrough);

    public TransportSecurity {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(identity, "identity");
    }

    private static <Q, R> ServerCall.Listener<Q> passThrough(ServerCall<Q, R> call, Metadata headers,
                                                            ServerCallHandler<Q, R> next) {
        return next.startCall(call, headers);
    }

    public boolean isPlaintext() {
        return server instanceof InsecureServerCredentials;
    }
}

package io.metaquorum.raft.transport.grpc;

import io.metaquorum.raft.message.RaftRequest;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A peer in its own JVM, for the kill -9 test: serves Raft on an ephemeral loopback port,
 * prints {@code PORT <port>} and then {@code RECEIVED <correlation id>} for each request,
 * and never answers. Runs until killed.
 */
public final class SilentPeerProcess {
    private SilentPeerProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        GrpcRaftTransport transport = GrpcRaftTransport.start(new GrpcTransportConfig(2,
                List.of(new InetSocketAddress("127.0.0.1", 0)), Map.of(), 2_000, GrpcConnectionSettings.DEFAULTS),
                message -> {
                    if (message instanceof RaftRequest request) {
                        System.out.println("RECEIVED " + request.correlationId());
                        System.out.flush();
                    }
                }, List.of());
        System.out.println("PORT " + transport.boundAddresses().get(0).getPort());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}

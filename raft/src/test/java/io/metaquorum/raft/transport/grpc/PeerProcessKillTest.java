package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RequestFailure;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The fast-failover premise of docs/architecture.md §3: when the peer process is killed (SIGKILL, no
 * shutdown code runs), the kernel closes its sockets and a Fetch parked on it fails at once
 * as UNREACHABLE, long before its deadline.
 */
class PeerProcessKillTest {
    @Test
    void killedPeerTurnsAParkedFetchIntoUnreachable() throws Exception {
        Process peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SilentPeerProcess.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        RecordingSink sink = new RecordingSink();
        try (BufferedReader output = new BufferedReader(
                new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8))) {
            String portLine = readLine(output);
            assertTrue(portLine.startsWith("PORT "), portLine);
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", Integer.parseInt(portLine.substring(5)));
            try (GrpcRaftTransport client = GrpcRaftTransport.start(new GrpcTransportConfig(1, List.of(),
                    Map.of(2, address), 2_000, GrpcConnectionSettings.DEFAULTS), sink, List.of())) {
                // A ten-minute long poll: only the killed connection can end it within the test.
                client.send(new RaftRequest(1, 2, 77, RaftPayloads.fetch(0, 600_000)));
                assertTrue(readLine(output).startsWith("RECEIVED "));

                peer.destroyForcibly();

                assertEquals(new RequestFailure(2, 77, RequestFailure.Reason.UNREACHABLE),
                        sink.next(RequestFailure.class));
            }
        } finally {
            peer.destroyForcibly();
            peer.waitFor(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static String readLine(BufferedReader output) throws Exception {
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return output.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS);
        assertTrue(line != null, "the peer process ended early");
        return line;
    }
}

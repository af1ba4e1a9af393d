package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.transport.grpc.RaftPayloads.Exchange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Two transports over loopback: node 1 (client only) calls node 2 (server). */
class GrpcRaftTransportTest {
    private static final int CLIENT_ID = RaftPayloads.SENDER;
    private static final int SERVER_ID = 2;
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress("127.0.0.1", 0);

    private final RecordingSink serverSink = new RecordingSink();
    private final RecordingSink clientSink = new RecordingSink();
    private GrpcRaftTransport server;
    private GrpcRaftTransport client;

    @BeforeEach
    void startServer() {
        server = GrpcRaftTransport.start(new GrpcTransportConfig(SERVER_ID, List.of(ANY_LOOPBACK_PORT), Map.of(),
                2_000, GrpcConnectionSettings.DEFAULTS), serverSink, List.of());
    }

    @AfterEach
    void closeAll() {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    private GrpcRaftTransport startClient(InetSocketAddress serverAddress, int requestTimeoutMs) {
        client = GrpcRaftTransport.start(new GrpcTransportConfig(CLIENT_ID, List.of(), Map.of(SERVER_ID, serverAddress),
                requestTimeoutMs, GrpcConnectionSettings.DEFAULTS), clientSink, List.of());
        return client;
    }

    private InetSocketAddress serverAddress() {
        return server.boundAddresses().get(0);
    }

    static Exchange[] exchanges() {
        return RaftPayloads.allExchanges();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exchanges")
    void roundTripKeepsCorrelationIdsAndNamesTheSender(Exchange exchange) throws Exception {
        startClient(serverAddress(), 10_000);

        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 42, exchange.request()));
        RaftRequest inbound = serverSink.next(RaftRequest.class);
        assertEquals(exchange.expectedSourceId(), inbound.sourceId());
        assertEquals(SERVER_ID, inbound.destinationId());
        assertEquals(exchange.request(), inbound.payload());

        server.send(new RaftResponse(SERVER_ID, inbound.sourceId(), inbound.correlationId(), exchange.response()));
        RaftResponse answer = clientSink.next(RaftResponse.class);
        assertEquals(new RaftResponse(SERVER_ID, CLIENT_ID, 42, exchange.response()), answer);
        assertEquals(0, server.pendingInboundCalls());
    }

    @Test
    void inboundCorrelationIdsAreDistinct() throws Exception {
        startClient(serverAddress(), 10_000);
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 7, RaftPayloads.vote()));
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 7, RaftPayloads.vote()));
        long first = serverSink.next(RaftRequest.class).correlationId();
        long second = serverSink.next(RaftRequest.class).correlationId();
        assertEquals(false, first == second, "two calls got the same correlation id " + first);
    }

    @Test
    void serverShutDownDuringALongPollIsUnreachable() throws Exception {
        startClient(serverAddress(), 10_000);
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 5, RaftPayloads.fetch(0, 600_000)));
        serverSink.next(RaftRequest.class); // parked: the test never answers it

        server.close();

        assertEquals(new RequestFailure(SERVER_ID, 5, RequestFailure.Reason.UNREACHABLE),
                clientSink.next(RequestFailure.class));
    }

    @Test
    void nothingListeningIsUnreachable() throws Exception {
        try (RefusingPort nobody = RefusingPort.open()) {
            startClient(nobody.address(), 10_000);
            client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 9, RaftPayloads.vote()));
            assertEquals(new RequestFailure(SERVER_ID, 9, RequestFailure.Reason.UNREACHABLE),
                    clientSink.next(RequestFailure.class));
            // And again while the channel is in its reconnect backoff: still a prompt UNREACHABLE.
            client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 10, RaftPayloads.vote()));
            assertEquals(new RequestFailure(SERVER_ID, 10, RequestFailure.Reason.UNREACHABLE),
                    clientSink.next(RequestFailure.class));
        }
    }

    @Test
    void unansweredRequestTimesOutAndTheServerForgetsIt() throws Exception {
        startClient(serverAddress(), 200);
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 11, RaftPayloads.fetch(0, 0)));
        RaftRequest inbound = serverSink.next(RaftRequest.class);

        assertEquals(new RequestFailure(SERVER_ID, 11, RequestFailure.Reason.TIMEOUT),
                clientSink.next(RequestFailure.class));
        awaitNoPendingCalls();
        // A late answer to the cancelled call is dropped quietly.
        server.send(new RaftResponse(SERVER_ID, CLIENT_ID, inbound.correlationId(), FetchResponse.getDefaultInstance()));
    }

    @Test
    void aRestartedPeerIsReachedAgain() throws Exception {
        startClient(serverAddress(), 10_000);
        InetSocketAddress address = serverAddress();
        server.close();
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 1, RaftPayloads.vote()));
        assertEquals(RequestFailure.Reason.UNREACHABLE, clientSink.next(RequestFailure.class).reason());

        // The restarted peer answers every vote at once, from inside the sink.
        AtomicReference<GrpcRaftTransport> restarted = new AtomicReference<>();
        server = GrpcRaftTransport.start(new GrpcTransportConfig(SERVER_ID, List.of(address), Map.of(), 2_000,
                GrpcConnectionSettings.DEFAULTS), message -> restarted.get().send(new RaftResponse(SERVER_ID,
                CLIENT_ID, message.correlationId(), VoteResponse.getDefaultInstance())), List.of());
        restarted.set(server);
        // The core resends after each failure; so does this loop, for a bounded time.
        long giveUpNanos = System.nanoTime() + RecordingSink.WAIT_SECONDS * 1_000_000_000L;
        for (int attempt = 2; System.nanoTime() - giveUpNanos < 0; attempt++) {
            client.send(new RaftRequest(CLIENT_ID, SERVER_ID, attempt, RaftPayloads.vote()));
            RaftMessage outcome = clientSink.next(RaftMessage.class);
            if (outcome instanceof RaftResponse response) {
                assertEquals(attempt, response.correlationId());
                return;
            }
        }
        throw new AssertionError("never reached the restarted peer");
    }

    @Test
    void aPeerNeverCalledIsConnectedTo() throws Exception {
        try (ServerSocket otherPeer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            otherPeer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(RecordingSink.WAIT_SECONDS));
            client = GrpcRaftTransport.start(new GrpcTransportConfig(CLIENT_ID, List.of(),
                    Map.of(SERVER_ID, serverAddress(), 3, (InetSocketAddress) otherPeer.getLocalSocketAddress()),
                    10_000, GrpcConnectionSettings.DEFAULTS), clientSink, List.of());
            client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 1, RaftPayloads.vote()));
            try (Socket accepted = otherPeer.accept()) {
                assertTrue(accepted.isConnected(), "node 3 was connected to before any call to it");
            }
        }
    }

    @Test
    void theWarmUpIsAnsweredAtTheEdgeAndReachesNothing() {
        assertEquals(TransportWarmUp.RPC_COUNT,
                TransportWarmUp.run(serverAddress(), GrpcConnectionSettings.DEFAULTS, 10_000));
        assertEquals(0, serverSink.pending(), "every warm-up request was refused before the sink");
        assertEquals(0, server.pendingInboundCalls());
    }

    @Test
    void aPeerLearnedFromTheVoterSetIsReached() throws Exception {
        client = GrpcRaftTransport.start(new GrpcTransportConfig(CLIENT_ID, List.of(), Map.of(), 10_000,
                GrpcConnectionSettings.DEFAULTS), clientSink, List.of());
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 3, RaftPayloads.vote()));
        assertEquals(new RequestFailure(SERVER_ID, 3, RequestFailure.Reason.UNREACHABLE),
                clientSink.next(RequestFailure.class), "no address before the voter set names one");

        client.learnPeers(Map.of(SERVER_ID, serverAddress(), CLIENT_ID, new InetSocketAddress("127.0.0.1", 1)));
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 4, RaftPayloads.vote()));

        assertEquals(RaftPayloads.vote(), serverSink.next(RaftRequest.class).payload());
    }

    @Test
    void theVoterSetsAddressWinsOverAConfiguredOneThatMoved() throws Exception {
        startClient(new InetSocketAddress("127.0.0.1", 1), 10_000);
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 3, RaftPayloads.vote()));
        assertEquals(new RequestFailure(SERVER_ID, 3, RequestFailure.Reason.UNREACHABLE),
                clientSink.next(RequestFailure.class), "nothing listens at the configured address any more");

        client.learnPeers(Map.of(SERVER_ID, serverAddress()));
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 4, RaftPayloads.vote()));

        assertEquals(RaftPayloads.vote(), serverSink.next(RaftRequest.class).payload());
    }

    @Test
    void unknownPeerIsUnreachable() throws Exception {
        startClient(serverAddress(), 10_000);
        client.send(new RaftRequest(CLIENT_ID, 99, 3, RaftPayloads.vote()));
        assertEquals(new RequestFailure(99, 3, RequestFailure.Reason.UNREACHABLE), clientSink.next(RequestFailure.class));
    }

    @Test
    void answerOfTheWrongTypeIsAnInvariantViolation() throws Exception {
        startClient(serverAddress(), 10_000);
        client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 4, RaftPayloads.fetch(0, 0)));
        RaftRequest inbound = serverSink.next(RaftRequest.class);
        assertThrows(InvariantViolation.class, () -> server.send(
                new RaftResponse(SERVER_ID, CLIENT_ID, inbound.correlationId(), VoteResponse.getDefaultInstance())));
    }

    private void awaitNoPendingCalls() throws InterruptedException {
        // The server learns of the cancellation asynchronously: wait for it, bounded.
        long giveUpNanos = System.nanoTime() + RecordingSink.WAIT_SECONDS * 1_000_000_000L;
        while (server.pendingInboundCalls() != 0) {
            if (System.nanoTime() - giveUpNanos > 0) {
                throw new AssertionError("a cancelled call was never removed");
            }
            Thread.sleep(5);
        }
    }
}

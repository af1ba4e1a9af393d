package io.metaquorum.sim.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.sim.trace.TraceHash;
import io.metaquorum.sim.clock.SimClock;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimNetworkTest {
    private static final int CALL_TIMEOUT_MS = 2500;

    private final SimClock clock = new SimClock();
    private final EventScheduler scheduler = new EventScheduler(clock, 100_000);
    private final FakeNode[] nodes = {null, new FakeNode(), new FakeNode(), new FakeNode()};
    private SimNetwork network;

    private SimNetwork network(NetworkProfile profile) {
        network = new SimNetwork(scheduler, new Random(42), new TraceHash(), 3, profile);
        for (int id = 1; id <= 3; id++) {
            network.register(id, nodes[id]);
        }
        return network;
    }

    private static NetworkProfile lan() {
        return NetworkProfile.reliable(CALL_TIMEOUT_MS);
    }

    /** Runs everything, deadlines included. */
    private void drain() {
        while (scheduler.runNext() != null) {
            // run everything
        }
    }

    /** Runs what happens in the next 100 ms: deliveries, not deadlines. */
    private void deliver() {
        long until = clock.nowMs() + 100;
        while (scheduler.nextEventTimeMs() <= until) {
            scheduler.runNext();
        }
    }

    private static RaftRequest request(int from, int to, long correlationId) {
        return new RaftRequest(from, to, correlationId, VoteRequest.getDefaultInstance());
    }

    private static RaftResponse response(RaftRequest request) {
        return new RaftResponse(request.destinationId(), request.sourceId(), request.correlationId(),
                VoteResponse.getDefaultInstance());
    }

    @Test
    void aRequestAndItsResponseAreDelivered() {
        network(lan()).send(request(1, 2, 7));
        deliver();
        assertEquals(1, nodes[2].received.size());
        network.send(response((RaftRequest) nodes[2].received.get(0)));
        deliver();
        assertEquals(List.of(7L), nodes[1].correlationIds());
        assertTrue(nodes[1].received.get(0) instanceof RaftResponse);
        assertEquals(0, network.openCallCount());
    }

    @Test
    void withoutReorderingALinkDeliversInSendOrder() {
        network(new NetworkProfile(1, 30, 0, 0, 0, 0, false, CALL_TIMEOUT_MS));
        for (long i = 0; i < 50; i++) {
            network.send(request(1, 2, i));
        }
        drain();
        List<Long> ids = nodes[2].correlationIds();
        assertEquals(50, ids.size());
        assertEquals(ids.stream().sorted().toList(), ids);
    }

    @Test
    void withReorderingLaterMessagesOvertakeEarlierOnes() {
        network(new NetworkProfile(1, 30, 0, 0, 0, 0, true, CALL_TIMEOUT_MS));
        for (long i = 0; i < 50; i++) {
            network.send(request(1, 2, i));
        }
        drain();
        List<Long> ids = nodes[2].correlationIds();
        assertEquals(50, ids.size());
        assertNotEquals(ids.stream().sorted().toList(), ids);
    }

    @Test
    void aLostRequestTimesOutAtTheDeadline() {
        network(new NetworkProfile(1, 1, 0, 0, 1.0, 0, false, CALL_TIMEOUT_MS)).send(request(1, 2, 3));
        drain();
        assertTrue(nodes[2].received.isEmpty());
        assertEquals(RequestFailure.Reason.TIMEOUT, nodes[1].failure(0).reason());
        assertEquals(CALL_TIMEOUT_MS, nodes[1].receivedAtMs.get(0));
    }

    @Test
    void aCalleeThatDiesWithTheCallOpenResetsTheConnection() {
        network(lan()).send(request(1, 2, 9));
        deliver();
        nodes[2].running = false;
        network.onProcessStopped(2);
        deliver();
        RequestFailure failure = nodes[1].failure(0);
        assertEquals(RequestFailure.Reason.UNREACHABLE, failure.reason());
        assertEquals(2, failure.peerId());
        assertTrue(nodes[1].receivedAtMs.get(0) < 100, "a reset is reported at once, not at the deadline");
    }

    @Test
    void aRequestToADownNodeIsRefused() {
        nodes[3].running = false;
        network(lan()).send(request(1, 3, 1));
        drain();
        assertEquals(RequestFailure.Reason.UNREACHABLE, nodes[1].failure(0).reason());
    }

    @Test
    void aResetThatCannotCrossAPartitionLeavesTheCallToItsDeadline() {
        network(lan()).send(request(1, 2, 4));
        deliver();
        network.links().cutBoth(1, 2);
        nodes[2].running = false;
        network.onProcessStopped(2);
        drain();
        assertEquals(RequestFailure.Reason.TIMEOUT, nodes[1].failure(0).reason());
    }

    @Test
    void aOneWayCutDeliversRequestsButDropsTheirAnswers() {
        network(lan()).links().cut(2, 1);
        network.send(request(1, 2, 5));
        deliver();
        assertEquals(1, nodes[2].received.size());
        network.send(response((RaftRequest) nodes[2].received.get(0)));
        drain();
        assertEquals(RequestFailure.Reason.TIMEOUT, nodes[1].failure(0).reason());
    }

    @Test
    void aBlackHoleTimesCallsOutAndNeverResets() {
        network(lan()).links().cutBoth(1, 2);
        network.send(request(1, 2, 11));
        deliver();
        assertEquals(0, nodes[2].received.size());
        assertEquals(0, nodes[1].received.size(), "no reset: the caller hears nothing before its deadline");
        drain();
        assertEquals(RequestFailure.Reason.TIMEOUT, nodes[1].failure(0).reason());
    }

    @Test
    void aBlackHoledNodeStaysCutWhenThePartitionsHeal() {
        network(lan()).links().blackHole(2);
        network.links().healLinks();
        network.send(request(1, 2, 12));
        drain();
        assertEquals(RequestFailure.Reason.TIMEOUT, nodes[1].failure(0).reason());
        network.links().restore(2);
        network.send(request(1, 2, 13));
        deliver();
        assertEquals(1, nodes[2].received.size());
    }

    @Test
    void aRefusedLinkFailsCallsFastOneWayOnly() {
        network(lan()).links().refuse(1, 2);
        network.send(request(1, 2, 14));
        deliver();
        assertEquals(0, nodes[2].received.size());
        assertEquals(RequestFailure.Reason.UNREACHABLE, nodes[1].failure(0).reason());
        network.send(request(2, 1, 15));
        deliver();
        assertEquals(2, nodes[1].received.size(), "the other direction still carries calls");
    }

    @Test
    void aBurstOfResetsFailsOpenCallsAndLeavesTheLinkOpen() {
        network(lan()).send(request(1, 2, 16));
        network.send(request(3, 2, 17));
        deliver();
        network.resetConnections(1, 2);
        deliver();
        assertEquals(RequestFailure.Reason.UNREACHABLE, nodes[1].failure(0).reason());
        assertEquals(1, network.openCallCount(), "only the calls between 1 and 2 reset");
        network.send(request(1, 2, 18));
        deliver();
        assertEquals(3, nodes[2].received.size());
    }

    @Test
    void anAnswerReachesOnlyTheIncarnationThatAsked() {
        network(lan()).send(request(1, 2, 6));
        deliver();
        nodes[1].incarnation++;
        network.onProcessStopped(1);
        network.send(response((RaftRequest) nodes[2].received.get(0)));
        deliver();
        assertTrue(nodes[1].received.isEmpty());
    }

    @Test
    void duplicatedResponsesArriveTwice() {
        network(new NetworkProfile(1, 1, 0, 0, 0, 1.0, false, CALL_TIMEOUT_MS)).send(request(1, 2, 8));
        deliver();
        assertEquals(2, nodes[2].received.size(), "the request is handled twice");
        network.send(response((RaftRequest) nodes[2].received.get(0)));
        network.send(response((RaftRequest) nodes[2].received.get(1)));
        deliver();
        assertEquals(List.of(8L, 8L), nodes[1].correlationIds(), "the first answer, duplicated; the second dropped");
    }

    /** A node that records what reaches it. */
    @Test
    void aBadCertificateRefusesCallsFromAndToTheNodeFastUntilFixed() {
        network(lan()).breakCertificate(2);
        network.send(request(1, 2, 20));
        network.send(request(2, 3, 21));
        network.send(request(1, 3, 22));
        deliver();
        assertEquals(RequestFailure.Reason.UNREACHABLE, nodes[1].failure(0).reason(), "a call to it is refused");
        assertTrue(nodes[1].receivedAtMs.get(0) < 100, "refused at once, not at the deadline");
        assertEquals(1, nodes[2].received.size(), "nothing reaches it but its own call's refusal");
        assertEquals(RequestFailure.Reason.UNREACHABLE, nodes[2].failure(0).reason(), "a call from it is refused");
        assertEquals(1, ((RaftRequest) nodes[3].received.get(0)).sourceId(), "other nodes talk on");
        network.fixCertificate(2);
        network.send(request(1, 2, 23));
        deliver();
        assertEquals(2, nodes[2].received.size());
        assertEquals(1, ((RaftRequest) nodes[2].received.get(1)).sourceId(), "fixed, calls to it arrive again");
    }

    @Test
    void aCertificateGoingBadResetsTheNodesOpenCallsAndDropsWhatIsInFlight() {
        network(lan()).send(request(1, 2, 24));
        deliver();
        network.send(response((RaftRequest) nodes[2].received.get(0)));
        network.send(request(3, 2, 25));
        network.breakCertificate(2);
        drain();
        assertEquals(1, nodes[1].received.size());
        assertEquals(RequestFailure.Reason.UNREACHABLE, nodes[1].failure(0).reason(), "the answer in flight is lost");
        assertEquals(RequestFailure.Reason.UNREACHABLE, nodes[3].failure(0).reason());
        assertEquals(1, nodes[2].received.size(), "the request in flight never arrives");
        assertEquals(0, network.openCallCount());
    }

    @Test
    void behindABlackHoleABadCertificateTimesOutLikeAnyCall() {
        network(lan()).links().cutBoth(1, 2);
        network.breakCertificate(2);
        network.send(request(1, 2, 26));
        drain();
        assertEquals(RequestFailure.Reason.TIMEOUT, nodes[1].failure(0).reason(), "no handshake gets to fail");
    }

    private final class FakeNode implements NetworkEndpoint {
        final List<RaftMessage> received = new ArrayList<>();
        final List<Long> receivedAtMs = new ArrayList<>();
        boolean running = true;
        long incarnation = 1;

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public long incarnation() {
            return incarnation;
        }

        @Override
        public void deliver(RaftMessage message) {
            received.add(message);
            receivedAtMs.add(clock.nowMs());
        }

        List<Long> correlationIds() {
            return received.stream().map(RaftMessage::correlationId).toList();
        }

        RequestFailure failure(int index) {
            return (RequestFailure) received.get(index);
        }
    }
}

package io.metaquorum.sim.system.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.sim.Scenario;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.network.DeliveryObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bad-certificate fault in the system simulation, 3 controllers and 3 brokers on a
 * reliable network, through the production processes: a leader whose certificate goes bad is
 * replaced by one of the other two while writes commit on, is refused by everyone (raft, broker
 * lifecycle, admin clients) and refuses everyone, at once and visibly (UNREACHABLE, never a
 * timeout), and once fixed rejoins and catches up. The raft and system invariants run after
 * every event; the end-of-run checks (acknowledged writes committed, the history linearizable)
 * run at the end.
 */
class BadCertificateTest {
    private static final long BOUND_MS = 60_000;

    /** What the network delivers that involves one node, while {@link #counting}. */
    private static final class NodeTraffic implements DeliveryObserver {
        private final int nodeId;
        boolean counting;
        /** Raft requests and responses from or to the node. */
        long messages;
        /** Failed calls from or to the node, by reason. */
        long refusals;
        long timeouts;

        NodeTraffic(int nodeId) {
            this.nodeId = nodeId;
        }

        @Override
        public void onDeliver(int to, RaftMessage message) {
            if (!counting) {
                return;
            }
            if (message instanceof RequestFailure failure) {
                if (to == nodeId || failure.peerId() == nodeId) {
                    if (failure.reason() == RequestFailure.Reason.UNREACHABLE) {
                        refusals++;
                    } else {
                        timeouts++;
                    }
                }
            } else if (involves(message)) {
                messages++;
            }
        }

        private boolean involves(RaftMessage message) {
            if (message instanceof RaftRequest request) {
                return request.sourceId() == nodeId || request.destinationId() == nodeId;
            }
            RaftResponse response = (RaftResponse) message;
            return response.sourceId() == nodeId || response.destinationId() == nodeId;
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aLeaderWithABadCertificateIsReplacedAndCatchesUpOnceFixed(long seed) {
        Scenario scenario = Scenario.startSystem(seed, 3, 3);
        SystemWorld system = scenario.system();
        scenario.runUntil(() -> system.allBrokersUnfenced() && system.stats().itemsAcknowledged() > 0, BOUND_MS,
                "every broker unfenced and a write acknowledged");
        SimNode bad = scenario.awaitLeader(BOUND_MS, Set.of());
        int epoch = bad.status().epoch();
        long incarnation = bad.incarnation();
        long refusedBefore = system.rpc().refusedCount();
        long acknowledgedBefore = system.stats().itemsAcknowledged();
        long badEndAtFault = bad.log().endOffset();
        NodeTraffic traffic = new NodeTraffic(bad.nodeId());
        scenario.observeDeliveries(traffic);
        traffic.counting = true;
        long since = scenario.nowMs();
        scenario.breakCertificate(bad.nodeId());

        SimNode successor = scenario.awaitLeader(scenario.silentLeaderBoundMs(), Set.of(bad.nodeId()));
        System.out.println("bad certificate (seed " + seed + "): leader " + bad.nodeId() + " replaced by "
                + successor.nodeId() + " after " + (scenario.nowMs() - since) + " ms");
        assertTrue(successor.status().epoch() > epoch, "the new leader leads a later epoch");
        scenario.runUntil(() -> scenario.committedOffset() > badEndAtFault + 10
                        && system.stats().itemsAcknowledged() > acknowledgedBefore + 5 && system.allBrokersUnfenced(),
                BOUND_MS, "writes acknowledged and committed past the bad node's log, every broker unfenced");
        scenario.runFor(3_000);

        assertTrue(bad.isRunning() && bad.incarnation() == incarnation, "the node runs on, never restarted");
        assertEquals(0, traffic.messages, "no raft message reached or left the node: no vote, no fetch");
        assertTrue(traffic.refusals > 0, "its calls and calls to it were refused");
        assertEquals(0, traffic.timeouts, "refused at once, never left to time out");
        assertTrue(bad.status().highWatermark() <= badEndAtFault, "it learned of no commit after the fault");
        assertTrue(system.rpc().refusedCount() > refusedBefore, "lifecycle and admin calls to it were refused");

        traffic.counting = false;
        scenario.fixCertificate(bad.nodeId());
        long target = scenario.committedOffset();
        scenario.runUntil(() -> bad.status().highWatermark() >= target && bad.status().leaderId() >= 0
                        && bad.status().leaderId() != bad.nodeId(), BOUND_MS,
                "node " + bad.nodeId() + " following a leader and caught up to " + target);
        SimNode leader = scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.runUntil(() -> bad.log().endOffset() == leader.log().endOffset()
                && system.stats().itemsAcknowledged() > acknowledgedBefore + 10, BOUND_MS, "node " + bad.nodeId()
                + " at the leader's log end while writes go on");
        scenario.finishChecks();
    }

    /**
     * Each call of the system layer ({@link SystemRpc}: admin clients, broker lifecycle,
     * forwarding) from or to the node is refused after a round trip and never handled; other
     * calls are answered; once fixed, calls to it are answered again.
     */
    @Test
    void everySystemCallFromOrToTheNodeIsRefused() {
        Scenario scenario = Scenario.startSystem(1, 3, 3);
        scenario.runFor(2_000);
        SystemRpc rpc = scenario.system().rpc();
        List<String> outcomes = new ArrayList<>();
        scenario.breakCertificate(1);
        call(rpc, outcomes, SystemRpc.CLIENT, 1);
        call(rpc, outcomes, 4, 1);
        call(rpc, outcomes, 1, 2);
        call(rpc, outcomes, 4, 2);
        call(rpc, outcomes, SystemRpc.CLIENT, 2);
        scenario.runFor(500);
        assertEquals(List.of("0->1 refused", "4->1 refused", "1->2 refused", "4->2 answered by 2",
                "0->2 answered by 2").stream().sorted().toList(), outcomes.stream().sorted().toList());
        outcomes.clear();
        scenario.fixCertificate(1);
        call(rpc, outcomes, SystemRpc.CLIENT, 1);
        call(rpc, outcomes, 1, 2);
        scenario.runFor(500);
        assertEquals(List.of("0->1 answered by 1", "1->2 answered by 2"), outcomes.stream().sorted().toList());
    }

    private static void call(SystemRpc rpc, List<String> outcomes, int from, int to) {
        rpc.<Integer>call(from, () -> true, to, (callee, reply) -> reply.accept(callee.nodeId()),
                answer -> outcomes.add(from + "->" + to + " answered by " + answer),
                () -> outcomes.add(from + "->" + to + " refused"));
    }
}

package io.metaquorum.sim.system.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.sim.Scenario;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.cluster.StopReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A broker's graceful stop in the system simulation, through the real processes (raft driver
 * loop, controller, broker lifecycle) on a reliable network, 3 controllers and 3 brokers: the
 * stop asks the controller first and the raft shutdown follows once the controller let the
 * broker go (its leaderships moved), or once the request timeout passed without an answer; a
 * crash in the middle kills the process; a paused broker handles its stop once resumed. The
 * system invariants (controlled-shutdown-moved-leaders among them) run after every event.
 */
class ControlledShutdownTest {
    private static final long BOUND_MS = 60_000;
    private static final long STOP_TIMEOUT_MS = RaftTimeouts.DEFAULTS.requestTimeoutMs();

    /** A system cluster whose brokers are all unfenced and one of which leads a partition: that one. */
    private static SimNode leadingBroker(Scenario scenario) {
        SystemWorld system = scenario.system();
        scenario.runUntil(() -> system.allBrokersUnfenced() && !ledBy(system.committedImage()).isEmpty(), BOUND_MS,
                "every broker unfenced and a partition led by a broker");
        return scenario.node(ledBy(system.committedImage()).get(0));
    }

    /** The brokers leading a partition in {@code image}, in topic and partition order (repeated per partition). */
    private static List<Integer> ledBy(MetadataImage image) {
        List<Integer> leaders = new ArrayList<>();
        for (TopicImage topic : image.topics().sortedByName()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                if (topic.partition(p).leader() >= 0) {
                    leaders.add(topic.partition(p).leader());
                }
            }
        }
        return leaders;
    }

    private static BrokerState state(SimNode node) {
        return ((BrokerRole) node.role()).broker().state();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void theControllerLetsTheBrokerGoOnceItsLeadershipsMoved(long seed) {
        Scenario scenario = Scenario.startSystem(seed, 3, 3);
        SimNode broker = leadingBroker(scenario);
        long incarnation = broker.incarnation();
        long begunAt = scenario.nowMs();
        broker.beginShutdown();
        assertEquals(BrokerState.PENDING_CONTROLLED_SHUTDOWN, state(broker));
        scenario.runUntil(() -> broker.incarnation() != incarnation || !broker.isRunning(), STOP_TIMEOUT_MS + 1_000,
                "broker " + broker.nodeId() + " stopped");
        assertEquals(StopReason.SHUTDOWN, broker.lastStopReason());
        assertTrue(scenario.nowMs() - begunAt < STOP_TIMEOUT_MS, "the controller answered before the timeout");
        SystemStats stats = scenario.system().stats();
        assertEquals(1, stats.controlledShutdownsBegun());
        assertEquals(1, stats.controlledShutdownsCompleted());
        MetadataImage committed = scenario.system().committedImage();
        BrokerRegistration registration = committed.cluster().broker(broker.nodeId());
        assertNotNull(registration);
        assertTrue(registration.fenced(), "the stopped broker is fenced");
        assertFalse(ledBy(committed).contains(broker.nodeId()), "the stopped broker leads nothing");
        // The supervisor restarts it: a new incarnation registers and is unfenced again.
        scenario.runUntil(() -> broker.isRunning() && scenario.system().allBrokersUnfenced(), BOUND_MS,
                "broker " + broker.nodeId() + " back and unfenced");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void withoutAnAnswerTheRaftShutdownFollowsAtTheTimeout(long seed) {
        Scenario scenario = Scenario.startSystem(seed, 3, 3);
        SimNode broker = leadingBroker(scenario);
        scenario.blackHole(broker.nodeId());
        long begunAt = scenario.nowMs();
        broker.beginShutdown();
        scenario.runFor(STOP_TIMEOUT_MS - 1);
        assertTrue(broker.isRunning(), "the broker waits for the controller up to the timeout");
        assertEquals(BrokerState.PENDING_CONTROLLED_SHUTDOWN, state(broker));
        scenario.runUntil(() -> !broker.isRunning(), 1_000, "broker " + broker.nodeId() + " stopped");
        assertEquals(StopReason.SHUTDOWN, broker.lastStopReason());
        assertTrue(scenario.nowMs() - begunAt >= STOP_TIMEOUT_MS);
        assertEquals(1, scenario.system().stats().controlledShutdownsBegun());
        assertEquals(0, scenario.system().stats().controlledShutdownsCompleted(), "no answer, nothing to judge");
        scenario.restore(broker.nodeId());
        scenario.runUntil(() -> broker.isRunning() && scenario.system().allBrokersUnfenced(), BOUND_MS,
                "broker " + broker.nodeId() + " back and unfenced");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aCrashDuringTheControlledShutdownKillsTheProcess(long seed) {
        Scenario scenario = Scenario.startSystem(seed, 3, 3);
        SimNode broker = leadingBroker(scenario);
        scenario.blackHole(broker.nodeId());
        broker.beginShutdown();
        scenario.runFor(STOP_TIMEOUT_MS / 2);
        assertEquals(BrokerState.PENDING_CONTROLLED_SHUTDOWN, state(broker));
        scenario.crash(broker.nodeId());
        assertEquals(StopReason.CRASH, broker.lastStopReason());
        scenario.restore(broker.nodeId());
        scenario.restart(broker.nodeId());
        long incarnation = broker.incarnation();
        // The dead incarnation's stop deadline passes: the new process is not stopped by it.
        scenario.runFor(2 * STOP_TIMEOUT_MS);
        assertTrue(broker.isRunning() && broker.incarnation() == incarnation, "the restarted broker runs on");
        scenario.runUntil(() -> scenario.system().allBrokersUnfenced(), BOUND_MS,
                "broker " + broker.nodeId() + " back and unfenced");
        assertEquals(0, scenario.system().stats().controlledShutdownsCompleted());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aPausedBrokerBeginsItsControlledShutdownOnceResumed(long seed) {
        Scenario scenario = Scenario.startSystem(seed, 3, 3);
        SimNode broker = leadingBroker(scenario);
        long incarnation = broker.incarnation();
        scenario.pause(broker.nodeId());
        broker.beginShutdown();
        // Longer than the stop's timeout and the broker session: the controller fences it meanwhile.
        scenario.runFor(2 * STOP_TIMEOUT_MS + 3_000);
        assertTrue(broker.isRunning(), "a paused process does not act on its SIGTERM");
        assertEquals(BrokerState.RUNNING, state(broker));
        assertEquals(0, scenario.system().stats().controlledShutdownsBegun());
        assertTrue(scenario.system().committedImage().cluster().broker(broker.nodeId()).fenced(),
                "its session expired during the pause");
        scenario.resume(broker.nodeId());
        scenario.runUntil(() -> broker.incarnation() != incarnation || !broker.isRunning(), STOP_TIMEOUT_MS + 1_000,
                "broker " + broker.nodeId() + " stopped");
        assertEquals(StopReason.SHUTDOWN, broker.lastStopReason());
        assertEquals(1, scenario.system().stats().controlledShutdownsBegun());
        assertEquals(1, scenario.system().stats().controlledShutdownsCompleted(),
                "the controller lets an already fenced broker go");
    }
}

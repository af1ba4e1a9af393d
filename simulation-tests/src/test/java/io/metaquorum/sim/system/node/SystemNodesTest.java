package io.metaquorum.sim.system.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.node.BrokerNode;
import io.metaquorum.broker.node.LifecycleTransport;
import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ScheduledReconciler;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.CreateTopicPolicy;
import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.sim.system.fs.CrashMode;
import io.metaquorum.sim.system.fs.MetadataWriteOrder;
import io.metaquorum.sim.system.fs.SimFileSystem;
import io.metaquorum.sim.system.fs.SimPartitionStore;
import io.metaquorum.sim.system.invariant.BrokerDirectoryCheck;
import io.metaquorum.sim.system.invariant.ImageReplayCheck;
import io.metaquorum.sim.system.invariant.PartitionLeaderCheck;
import io.metaquorum.sim.system.invariant.ReplayedLog;
import io.metaquorum.sim.system.invariant.TopicCompletenessCheck;
import io.metaquorum.sim.system.invariant.TopicIdReuseCheck;
import io.metaquorum.sim.system.workload.AdminAnswer;
import io.metaquorum.sim.system.workload.AdminCall;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Two controller nodes and three broker nodes built from the system-layer state machines,
 * driven directly over a scripted raft: the real controller and production's broker node
 * (loader, lifecycle, image gate, reconciler) over simulated disks, with the system invariants after every ms. A broker stops
 * heartbeating and is fenced (its leaderships move), comes back and is unfenced; a topic is
 * deleted and re-created under its name; a broker crashes, loses what it had not synced,
 * restarts with a new incarnation and catches up; the leadership moves to the standby.
 */
class SystemNodesTest {
    private static final String CLUSTER = "sim-cluster";
    private static final long SESSION_TIMEOUT_MS = 3_000;
    private static final long STRAY_DELAY_MS = 2_000;
    private static final List<Integer> BROKERS = List.of(11, 12, 13);
    private static final List<Path> LOG_DIRS = List.of(Path.of("/data/a"), Path.of("/data/b"));
    private static final LifecycleTimings TIMINGS = new LifecycleTimings(500, 100, 1_000);

    private final TopicIdReuseCheck ids = new TopicIdReuseCheck();
    private final ReplayedLog replayed = new ReplayedLog(ids::observe);
    private final ImageReplayCheck imageCheck = new ImageReplayCheck(replayed);
    private final ScriptedRaft raft = new ScriptedRaft(replayed);
    private final TreeMap<Integer, SimControllerNode> controllers = new TreeMap<>();
    private final TreeMap<Integer, BrokerNode> brokers = new TreeMap<>();
    private final TreeMap<Integer, SimFileSystem> disks = new TreeMap<>();
    private final TreeMap<Long, List<Runnable>> network = new TreeMap<>();
    private final List<AdminAnswer> answers = new ArrayList<>();
    private int activeController = 1;
    private int silentBroker = -1;
    private long now;
    private boolean sawFencedLeaderMove;

    private static ControllerConfig config() {
        return new ControllerConfig(new ControllerManagers.Settings(ReplicationDefaults.KAFKA, SESSION_TIMEOUT_MS,
                new TreeMap<>()), CreateTopicPolicy.NONE, 500, 8192);
    }

    private void startBroker(int id, int incarnation) {
        String logPrefix = "[node " + id + "] ";
        SimPartitionStore store = new SimPartitionStore(disks.get(id), MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC);
        ScheduledReconciler directories = new ScheduledReconciler(new PartitionReconciler(id, LOG_DIRS,
                STRAY_DELAY_MS, store, logPrefix), logPrefix, (image, result, nowMs) -> {
                    if (result.complete()) {
                        BrokerDirectoryCheck.check(id, image, disks.get(id), LOG_DIRS, nowMs, STRAY_DELAY_MS, 1);
                    }
                });
        BrokerNode broker = new BrokerNode(logPrefix, new BrokerNode.Settings(CLUSTER, id, Uuid.newBuilder()
                .setMostSignificantBits(id).setLeastSignificantBits(incarnation).build(), List.of(), "", TIMINGS,
                List.copyOf(controllers.keySet()), 1_000), new MetadataLoader(logPrefix, Long.MAX_VALUE, task -> false),
                (controllerId, call, callback) -> send(id, call, callback), directories, () -> now);
        brokers.put(id, broker);
        raft.attach(id, broker.listener());
    }

    /** The scripted network: every call reaches the active controller, except a silent broker's, which time out. */
    private void send(int brokerId, LifecycleCall call, LifecycleTransport.Callback callback) {
        if (brokerId == silentBroker) {
            later(50, () -> callback.onFailure("simulated timeout"));
            return;
        }
        controllers.get(activeController).handleLifecycle(call, now, answer -> later(1, () -> {
            if (answer instanceof LifecycleAnswer.Registration registration) {
                callback.onRegistration(registration.response());
            } else if (answer instanceof LifecycleAnswer.Heartbeat heartbeat) {
                callback.onHeartbeat(heartbeat.response());
            }
        }));
    }

    private void later(long delayMs, Runnable action) {
        network.computeIfAbsent(now + delayMs, t -> new ArrayList<>()).add(action);
    }

    private void admin(AdminCall call) {
        controllers.get(activeController).adminEndpoint(1_000).handle(call, now, answer -> later(1, () ->
                answers.add(answer)));
    }

    private void step() {
        now++;
        List<Runnable> due = network.remove(now);
        if (due != null) {
            due.forEach(Runnable::run);
        }
        for (SimControllerNode controller : controllers.values()) {
            controller.drive(raft.portOf(controller.nodeId()), now);
        }
        raft.commit();
        for (SimControllerNode controller : controllers.values()) {
            controller.drive(raft.portOf(controller.nodeId()), now);
        }
        for (BrokerNode broker : brokers.values()) {
            broker.drive(now);
        }
        checkImages();
    }

    private void checkImages() {
        for (SimControllerNode controller : controllers.values()) {
            imageCheck.observe(controller.nodeId(), controller.image());
        }
        brokers.forEach((id, broker) -> imageCheck.observe(id, broker.image()));
        MetadataImage committed = replayed.last();
        PartitionLeaderCheck.check(0, committed);
        TopicCompletenessCheck.check(0, committed);
    }

    private void runUntil(long targetMs) {
        while (now < targetMs) {
            step();
            if (silentBroker >= 0) {
                sawFencedLeaderMove |= leaders(replayed.last()).stream().noneMatch(l -> l == silentBroker)
                        && replayed.last().cluster().broker(silentBroker).fenced();
            }
        }
    }

    private static List<Integer> leaders(MetadataImage image) {
        List<Integer> leaders = new ArrayList<>();
        for (TopicImage topic : image.topics().sortedByName()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                leaders.add(topic.partition(p).leader());
            }
        }
        return leaders;
    }

    private void assertSettled() {
        brokers.forEach((id, broker) -> {
            assertEquals(BrokerState.RUNNING, broker.state(), "broker " + id);
            MetadataImage reconciled = broker.reconciledImage().orElseThrow();
            assertEquals(replayed.last().topics(), reconciled.topics(), "broker " + id);
            BrokerDirectoryCheck.check(id, reconciled, disks.get(id), LOG_DIRS, now, STRAY_DELAY_MS, 1);
        });
    }

    @Test
    void controllersAndBrokersFollowTheLogThroughFencingRecreationCrashAndFailover() {
        for (int id : List.of(1, 2)) {
            SimControllerNode controller = new SimControllerNode(id, config(), new SplittableRandom(id), Long.MAX_VALUE,
                    task -> false);
            controllers.put(id, controller);
            raft.attach(id, controller);
        }
        for (int id : BROKERS) {
            SimFileSystem fs = new SimFileSystem(new Random(id), CrashMode.KEEP_RANDOM_PREFIX);
            LOG_DIRS.forEach(fs::mkdirs);
            disks.put(id, fs);
            startBroker(id, 1);
        }
        raft.elect(1, now);
        runUntil(1_000);
        brokers.forEach((id, b) -> assertEquals(BrokerState.RUNNING, b.state(), "broker " + id));

        admin(new AdminCall.CreateTopics(new CreateTopicsRequest(List.of(Topic.of("a", 3, 2), Topic.of("b", 4, 3)),
                false)));
        runUntil(2_000);
        assertEquals(ErrorCode.NONE, answers.get(0).items().get(0).code());
        assertSettled();

        silentBroker = 13;
        runUntil(2_000 + SESSION_TIMEOUT_MS + 1_000);
        assertTrue(replayed.last().cluster().broker(13).fenced());
        assertTrue(sawFencedLeaderMove, "the fenced broker led nothing");
        silentBroker = -1;
        runUntil(8_000);
        assertSettled();

        admin(new AdminCall.DeleteTopics(List.of("a")));
        runUntil(8_100);
        admin(new AdminCall.CreateTopics(new CreateTopicsRequest(List.of(Topic.of("a", 2, 3)), false)));
        runUntil(9_000);
        assertEquals(ErrorCode.NONE, answers.get(2).items().get(0).code());
        assertSettled();

        SimFileSystem crashed = disks.get(12);
        crashed.crash();
        crashed.restart();
        startBroker(12, 2);
        runUntil(9_000 + STRAY_DELAY_MS + 2_000);
        assertSettled();

        raft.resign(raft.epoch(), now);
        raft.elect(2, now);
        activeController = 2;
        // The new leader's controller hears of its leadership on its own (simulated) thread, a step later.
        runUntil(now + 10);
        admin(new AdminCall.CreateTopics(new CreateTopicsRequest(List.of(Topic.of("c", 1, 3)), false)));
        runUntil(now + 2_000);
        assertEquals(ErrorCode.NONE, answers.get(3).items().get(0).code());
        assertSettled();
        assertEquals(3, replayed.last().topics().topicCount());
        assertEquals(4, ids.idsSeen(), "a, b, a again, c");
        for (TopicImage topic : replayed.last().topics().sortedByName()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                assertTrue(topic.partition(p).leader() != PartitionRegistration.NO_LEADER);
            }
        }
    }
}

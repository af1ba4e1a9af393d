package io.metaquorum.sim.system.node;

import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.metadata.controller.AppendSink;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerRequest;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.snapshot.SnapshotScheduler;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.core.AppendResult;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * The state machine of a simulated controller node, wired as production wires one
 * ({@code ControllerRole}, {@code ControllerRaftBridge}, {@code RaftAppendSink}) with the
 * threads taken out: raft's callbacks feed the real {@link MetadataLoader} at once (the driver
 * thread's part) and queue the real {@link QuorumController}'s part as events, which
 * {@link #drive} runs afterwards (the controller thread's part), handing the controller's
 * appends and resignations to the node's raft core through a {@link RaftPort}.
 *
 * <p>Ordering kept from production: the controller hears of commits, leadership and append
 * outcomes in the order raft reported them; a burst of commits is one event reading the
 * loader's newest image. The loader's snapshots go to the scheduler it is given (in a
 * simulated node a {@link SimSnapshotWriter}, which the node's role runs before this one).
 */
public final class SimControllerNode implements RaftListener, AppendSink {
    /** Events one {@link #drive} runs at most before it yields (bounds a step; the rest wait). */
    public static final int EVENTS_PER_DRIVE_MAX = 10_000;

    /** An event for the controller's (simulated) thread. */
    private interface ControllerEvent {
        void run(QuorumController controller, long nowMs);
    }

    private record PendingAppend(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
    }

    private final int nodeId;
    private final MetadataLoader loader;
    private final QuorumController controller;
    private final ArrayDeque<ControllerEvent> events = new ArrayDeque<>();
    private final ArrayDeque<PendingAppend> appends = new ArrayDeque<>();
    private final ArrayDeque<Integer> resignations = new ArrayDeque<>();
    private boolean commitQueued;
    /** The committed image last handed to the controller (after the loader, on the controller's event queue). */
    private MetadataImage handedCommitted = MetadataImage.EMPTY;
    private LeaderAndEpoch leader = LeaderAndEpoch.noLeader(0);

    public SimControllerNode(int nodeId, ControllerConfig config, RandomGenerator random, long snapshotTriggerBytes,
                             SnapshotScheduler snapshots) {
        this.nodeId = nodeId;
        String logPrefix = "[node " + nodeId + "] ";
        this.loader = new MetadataLoader(logPrefix, snapshotTriggerBytes, snapshots);
        this.controller = new QuorumController(logPrefix, config, random, this);
    }

    public int nodeId() {
        return nodeId;
    }

    /** The loader's image: what raft committed and this node replayed. */
    public MetadataImage image() {
        return loader.image();
    }

    /** The committed image the controller was last told of: what its reads must be served from. */
    public MetadataImage handedCommitted() {
        return handedCommitted;
    }

    public QuorumController controller() {
        return controller;
    }

    /** The active controller as this node knows it, -1 when none. */
    public int knownControllerId() {
        return leader.leaderId();
    }

    /** This node's admin service. */
    public ControllerAdminEndpoint adminEndpoint(int writeTimeoutMs) {
        return new ControllerAdminEndpoint(controller, writeTimeoutMs, this::knownControllerId);
    }

    // ---- raft's callbacks (the driver thread's part) ----

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        loader.handleCommit(batches);
        queueCommitted();
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        loader.handleLoadSnapshot(snapshotId, snapshot);
        queueCommitted();
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch newLeader) {
        loader.handleLeaderChange(newLeader);
        leader = newLeader;
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        loader.handleBecomeLeader(epoch, epochStartOffset);
        queueCommitted();
        events.add((c, nowMs) -> c.handleBecomeLeader(epoch, epochStartOffset, nowMs));
    }

    @Override
    public void handleResign(int epoch) {
        loader.handleResign(epoch);
        events.add((c, nowMs) -> c.handleResign(epoch));
    }

    private void queueCommitted() {
        if (!commitQueued) {
            commitQueued = true;
            events.add((c, nowMs) -> {
                commitQueued = false;
                handedCommitted = loader.image();
                c.handleCommitted(handedCommitted);
            });
        }
    }

    // ---- the controller's appends ----

    @Override
    public void append(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
        appends.add(new PendingAppend(epoch, expectedLastOffset, List.copyOf(records)));
    }

    @Override
    public void resign(int epoch) {
        resignations.add(epoch);
    }

    /**
     * Runs the controller's queued events and timers and makes its appends and resignations
     * through {@code raft}, until nothing is left to do (or {@link #EVENTS_PER_DRIVE_MAX});
     * returns when it next needs to run.
     */
    public long drive(RaftPort raft, long nowMs) {
        int ran = 0;
        long nextDeadlineMs = Long.MAX_VALUE;
        while (ran < EVENTS_PER_DRIVE_MAX) {
            while (!events.isEmpty() && ran < EVENTS_PER_DRIVE_MAX) {
                events.poll().run(controller, nowMs);
                ran++;
            }
            nextDeadlineMs = controller.poll(nowMs);
            if (appends.isEmpty() && resignations.isEmpty()) {
                break;
            }
            while (!appends.isEmpty()) {
                PendingAppend append = appends.poll();
                AppendResult result = raft.append(append.epoch(), MetadataRecordCodec.encodeAll(append.records()), nowMs);
                boolean asExpected = result.accepted() && result.lastOffset() == append.expectedLastOffset();
                events.add((c, now) -> {
                    if (asExpected) {
                        c.handleAppendAccepted(append.epoch(), append.expectedLastOffset());
                    } else {
                        c.handleAppendRefused(append.epoch());
                    }
                });
            }
            while (!resignations.isEmpty()) {
                raft.resign(resignations.poll(), nowMs);
            }
        }
        return events.isEmpty() ? nextDeadlineMs : nowMs;
    }

    /** A broker's lifecycle call, answered as production's {@code BrokerLifecycleEndpoint} answers it. */
    public void handleLifecycle(LifecycleCall call, long nowMs, Consumer<LifecycleAnswer> reply) {
        int controllerId = knownControllerId();
        if (call instanceof LifecycleCall.Register register) {
            BrokerRegistrationRequest request = register.request();
            controller.registerBroker(new RegisterBrokerRequest(request.getBrokerId(), request.getIncarnationId(),
                    request.getListenersList(), request.getRack()), nowMs, response -> reply.accept(
                    new LifecycleAnswer.Registration(BrokerRegistrationResponse.newBuilder()
                            .setErrorCode(response.error().code()).setErrorMessage(response.error().message())
                            .setBrokerEpoch(response.brokerEpoch()).setControllerId(controllerId).build())));
        } else {
            BrokerHeartbeatRequest request = ((LifecycleCall.Heartbeat) call).request();
            controller.heartbeat(new HeartbeatRequest(request.getBrokerId(), request.getBrokerEpoch(),
                    request.getCurrentMetadataOffset(), request.getWantFence(), request.getWantShutDown()), nowMs,
                    response -> reply.accept(new LifecycleAnswer.Heartbeat(BrokerHeartbeatResponse.newBuilder()
                            .setErrorCode(response.error().code()).setErrorMessage(response.error().message())
                            .setIsCaughtUp(response.isCaughtUp()).setIsFenced(response.isFenced())
                            .setShouldShutDown(response.shouldShutDown()).setControllerId(controllerId).build())));
        }
    }
}

package io.metaquorum.sim.system.world;

import com.google.protobuf.Message;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.node.admin.AdminMethod;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.node.controller.ControllerNode;
import io.metaquorum.node.controller.SerialControllerQueues;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.security.Caller;
import io.metaquorum.sim.cluster.NodeRole;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.node.LifecycleAnswer;
import io.metaquorum.sim.system.node.NodeTime;
import io.metaquorum.sim.system.node.RaftPort;
import io.metaquorum.sim.system.node.SimControllerRaft;
import io.metaquorum.sim.system.node.SimSnapshotWriter;
import io.metaquorum.sim.system.invariant.AuthorizationCheck;
import io.metaquorum.sim.system.workload.AclCall;
import io.metaquorum.sim.system.workload.AdminAnswer;
import io.metaquorum.sim.system.workload.AdminCall;
import io.metaquorum.sim.system.workload.AdminCalls;
import io.metaquorum.sim.system.workload.ItemResult;
import io.metaquorum.sim.system.workload.ScramCall;
import io.metaquorum.sim.system.workload.SimCallers;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * A voter's role in system mode: the production {@link ControllerNode} of one process
 * incarnation and the production request handlers ({@link NodeRequests}) in front of it, over
 * the node's simulated clock, raft core ({@link SimControllerRaft}), network
 * ({@link SimForwarding}) and plain queues, with the authorizer on ({@link SystemWorld#access}).
 * The controller's turns run in {@link #drive}, as the server's controller thread runs them. Answers owed when the process ends are never sent
 * (the connection died with it).
 */
final class ControllerRole implements NodeRole {
    /** Turns one drive runs at most before it yields (bounds a step; the rest wait for the next). */
    static final int TURNS_PER_DRIVE_MAX = 1_000;

    private final SimNode machine;
    private final MetadataLoader loader;
    private final ControllerNode node;
    private final SerialControllerQueues queues = new SerialControllerQueues();
    private final SimControllerRaft raft;
    private final NodeRequests requests;
    private final AttemptTrackingGateway gateway;
    private final RaftListener listener;
    private final SimSnapshotWriter snapshots;
    private final SystemWorld world;
    private boolean alive = true;

    ControllerRole(SimNode machine, ControllerConfig config, RandomGenerator random, long snapshotTriggerBytes,
                   SimSnapshotWriter snapshots, SystemWorld world) {
        this.machine = machine;
        this.snapshots = snapshots;
        this.world = world;
        NodeTime time = new NodeTime(() -> world.localNowMs(machine));
        this.raft = new SimControllerRaft(time);
        this.loader = new MetadataLoader("[node " + machine.nodeId() + "] ", snapshotTriggerBytes, snapshots);
        this.node = new ControllerNode(machine.nodeId(), config, random, loader, raft, queues, time);
        this.gateway = new AttemptTrackingGateway(node.gateway(), world.admin());
        this.requests = NodeRequests.create(gateway,
                new SimForwarding(machine, world, () -> alive), world.clusterId(), world.access());
        this.listener = new CommitTap(node.stateMachine(), world, machine.nodeId());
    }

    /** The loader's image: what raft committed and this node replayed. */
    MetadataImage image() {
        return loader.image();
    }

    @Override
    public RaftListener listener() {
        return listener;
    }

    @Override
    public long drive(RaftPort raftPort, long nowMs) {
        snapshots.writePending(raftPort);
        raft.bind(raftPort);
        try {
            long deadlineMs = node.runTurn();
            for (int turns = 1; queues.hasWork() && turns < TURNS_PER_DRIVE_MAX; turns++) {
                deadlineMs = node.runTurn();
            }
            return queues.hasWork() ? nowMs : deadlineMs;
        } finally {
            raft.bind(null);
        }
    }

    @Override
    public void stopped() {
        alive = false;
    }

    /**
     * A broker's lifecycle call ({@code nowMs} unused: the node's own clock times it), from the
     * broker's node principal, a super user as production's are.
     */
    void handleLifecycle(LifecycleCall call, long nowMs, Consumer<LifecycleAnswer> reply) {
        if (call instanceof LifecycleCall.Register register) {
            CallOrigin origin = CallOrigin.CLIENT.by(SimCallers.nodeCaller(register.request().getBrokerId()));
            requests.lifecycle().registerBroker(register.request(), origin,
                    answer -> replyIfAlive(reply, new LifecycleAnswer.Registration(answer)));
        } else {
            LifecycleCall.Heartbeat heartbeat = (LifecycleCall.Heartbeat) call;
            CallOrigin origin = CallOrigin.CLIENT.by(SimCallers.nodeCaller(heartbeat.request().getBrokerId()));
            requests.lifecycle().brokerHeartbeat(heartbeat.request(), origin,
                    answer -> replyIfAlive(reply, new LifecycleAnswer.Heartbeat(answer)));
        }
    }

    /** Serves a write another node forwarded. */
    <Q, R> void serve(AdminMethod<Q, R> method, CallOrigin origin, Q request, Consumer<R> reply) {
        method.invoke(requests, origin, request, answer -> replyIfAlive(reply, answer));
    }

    /**
     * A client's call from {@code caller}, sent as the admin API's request; writes wait up to
     * {@code writeTimeoutMs} for their commit. Every answer this node gives is judged by
     * {@link AuthorizationCheck}: a read's on the committed image its handler got from the
     * gateway and answered from (that it is the node's current one is
     * {@link AdminDriver#READ_CURRENT}'s to judge), a write's on the image the active controller
     * decided it on (recorded in the attempt by {@link AttemptTrackingGateway}).
     */
    void handleAdmin(AdminCall call, Caller caller, int writeTimeoutMs, Consumer<AdminAnswer> reply) {
        Consumer<AdminAnswer> out = answer -> replyIfAlive(reply, answer);
        CallOrigin origin = CallOrigin.CLIENT.by(caller);
        AuthorizationCheck check = world.admin().authorization();
        Message[] response = new Message[1];
        if (call.writes()) {
            AuthorizationCheck.WriteDecision decision = world.admin().currentAttempt().decision();
            AdminCalls.send(requests.admin(), call, origin, writeTimeoutMs, answer -> {
                if (alive) {
                    check.write(machine.nodeId(), caller, call, response[0], decision);
                }
                out.accept(answer);
            }, r -> response[0] = r);
        } else {
            long current = loader.image().lastCommittedOffset();
            gateway.forgetHandedOut();
            AdminCalls.send(requests.admin(), call, origin, writeTimeoutMs, answer -> {
                AdminAnswer checked = checkReadIsCurrent(answer, current);
                MetadataImage servedFrom = gateway.handedOut();
                if (servedFrom != null) {
                    check.read(machine.nodeId(), caller, call, response[0], servedFrom);
                }
                out.accept(checked);
            }, r -> response[0] = r);
        }
    }

    /** An ACL write from {@code call}'s caller, judged as the other writes are. */
    void handleAcl(AclCall call, Consumer<Message> reply) {
        AuthorizationCheck.WriteDecision decision = world.admin().currentAttempt().decision();
        AdminCalls.send(requests.admin(), call, CallOrigin.CLIENT.by(call.caller()), response -> {
            if (alive) {
                world.admin().authorization().write(machine.nodeId(), call.caller(), call, response,
                        decision);
            }
            replyIfAlive(reply, response);
        });
    }

    /** A SCRAM credential write from {@code call}'s caller, judged by the controller's rules and for authorization. */
    void handleScram(ScramCall call, Consumer<AlterUserScramCredentialsResponse> reply) {
        AuthorizationCheck.WriteDecision decision = world.admin().currentAttempt().decision();
        AdminCalls.send(requests.admin(), call, CallOrigin.CLIENT.by(call.caller()), response -> {
            if (alive) {
                world.admin().authorization().write(machine.nodeId(), call.caller(), call, response, decision);
                world.scramCheck().answer(machine.nodeId(), call, response);
            }
            replyIfAlive(reply, response);
        });
    }

    private <A> void replyIfAlive(Consumer<A> reply, A answer) {
        if (alive) {
            reply.accept(answer);
        }
    }

    /**
     * A read is answered at once from the node's committed image as it is when the read
     * arrives ({@link AdminDriver#READ_CURRENT}). A read path that lags steadily behind keeps
     * the offsets a client reads monotonic and every image it serves equal to the replay, so
     * neither of those checks sees it.
     */
    private AdminAnswer checkReadIsCurrent(AdminAnswer answer, long current) {
        for (ItemResult item : answer.items()) {
            long offset = item.output() instanceof AdminOutput.Described d ? d.offset()
                    : item.output() instanceof AdminOutput.Listed l ? l.offset() : current;
            if (offset != current) {
                throw new CheckFailure(AdminDriver.READ_CURRENT, "a read of " + item.item() + " on controller "
                        + machine.nodeId() + " was answered from the image at " + offset + ", its image is at "
                        + current);
            }
        }
        return answer;
    }
}

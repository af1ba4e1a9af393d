package io.metaquorum.server.controller;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftNode;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The controller role of a node: the {@link QuorumController} on its own
 * {@link ControllerEventLoop}, appending through the node's raft, and what raft and the RPC
 * endpoints see of it (its state machine bridge and its gateway).
 */
public final class ControllerRole implements AutoCloseable {
    private final ControllerEventLoop loop;
    private final RaftListener stateMachine;
    private final ControllerGateway gateway;

    private ControllerRole(ControllerEventLoop loop, RaftListener stateMachine, ControllerGateway gateway) {
        this.loop = loop;
        this.stateMachine = stateMachine;
        this.gateway = gateway;
    }

    /** {@code raft} supplies the node once it is built (the node needs the state machine first). */
    public static ControllerRole create(int nodeId, String logPrefix, ControllerConfig config, MetadataLoader loader,
                                        Supplier<RaftNode> raft, FaultHandler faultHandler) {
        RaftAppendSink appends = new RaftAppendSink(nodeId, raft, SystemTime.INSTANCE);
        QuorumController controller = new QuorumController(logPrefix, config,
                new SplittableRandom(new SecureRandom().nextLong()), appends);
        ControllerEventLoop loop = new ControllerEventLoop(nodeId, controller, SystemTime.INSTANCE, faultHandler);
        appends.reportTo(loop);
        return new ControllerRole(loop, new ControllerRaftBridge(loader, loop),
                new NodeControllerGateway(nodeId, loop, loader, raft));
    }

    /** What raft drives: the loader, then the controller on its thread. */
    public RaftListener stateMachine() {
        return stateMachine;
    }

    public ControllerGateway gateway() {
        return gateway;
    }

    public void start() {
        loop.start();
    }

    @Override
    public void close() {
        loop.close();
    }
}

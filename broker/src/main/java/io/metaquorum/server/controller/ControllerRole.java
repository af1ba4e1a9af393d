package io.metaquorum.server.controller;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.node.controller.ControllerGateway;
import io.metaquorum.node.controller.ControllerNode;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.server.metrics.ControllerLoopMetrics;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The controller role of a server node: the deterministic {@link ControllerNode} given a
 * thread and concurrent queues ({@link ControllerEventLoop}), the system clock, and the node's
 * {@link RaftNode}.
 */
public final class ControllerRole implements AutoCloseable {
    private final ControllerEventLoop loop;
    private final ControllerNode node;

    private ControllerRole(ControllerEventLoop loop, ControllerNode node) {
        this.loop = loop;
        this.node = node;
    }

    /**
     * {@code raft} supplies the node once it is built (the node needs the state machine first);
     * {@code metrics} times the loop's events and counts its appends.
     */
    public static ControllerRole create(int nodeId, ControllerConfig config, MetadataLoader loader,
                                        Supplier<RaftNode> raft, FaultHandler faultHandler,
                                        ControllerLoopMetrics metrics) {
        ControllerEventLoop loop = new ControllerEventLoop(nodeId, SystemTime.INSTANCE, faultHandler, metrics);
        ControllerNode node = new ControllerNode(nodeId, config, new SplittableRandom(new SecureRandom().nextLong()),
                loader, new RaftNodeControllerRaft(raft, metrics), loop, SystemTime.INSTANCE);
        return new ControllerRole(loop, node);
    }

    /** What raft drives: the loader, then the controller on its thread. */
    public RaftListener stateMachine() {
        return node.stateMachine();
    }

    public ControllerGateway gateway() {
        return node.gateway();
    }

    public void start() {
        loop.start(node);
    }

    @Override
    public void close() {
        loop.close();
    }
}

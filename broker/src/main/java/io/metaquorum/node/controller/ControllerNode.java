package io.metaquorum.node.controller;

import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.node.trace.AppendTraces;
import io.metaquorum.node.trace.RequestTrace;
import io.metaquorum.raft.RaftListener;
import java.util.random.RandomGenerator;

/**
 * The controller role of a node as one object graph with no thread, socket or file of its own
 * (docs/engineering-rules.md rule 16): the {@link QuorumController}, fed by raft through a
 * {@link ControllerStateMachine} over the node's {@link MetadataLoader}, appending through
 * {@link ControllerAppends}, taking its work in {@link ControllerTurns}, and the gateway the
 * node's endpoints reach it by. Its ports are the clock, raft, and the queues its work waits
 * in. The server gives it a thread and concurrent queues; the simulator runs it on the node's
 * one simulated thread with plain ones.
 */
public final class ControllerNode {
    private final ControllerStateMachine stateMachine;
    private final ControllerTurns turns;
    private final ControllerGateway gateway;

    /**
     * @param loader the node's loader, shared with a broker role in combined mode
     * @param random the controller's placement randomness
     */
    public ControllerNode(int nodeId, ControllerConfig config, RandomGenerator random, MetadataLoader loader,
                          ControllerRaft raft, ControllerQueues queues, Time time) {
        String logPrefix = "[node " + nodeId + "] ";
        AppendTraces traces = new AppendTraces();
        QuorumController controller = new QuorumController(logPrefix, config, random, new ControllerAppends(logPrefix, raft,
                queues, traces));
        this.stateMachine = new ControllerStateMachine(loader, queues, traces);
        this.turns = new ControllerTurns(controller, queues, time);
        this.gateway = new Gateway(nodeId, loader, queues, traces);
    }

    /** What raft drives: the loader, then the controller through its queue. */
    public RaftListener stateMachine() {
        return stateMachine;
    }

    /** What the node's endpoints reach the controller and its image by. */
    public ControllerGateway gateway() {
        return gateway;
    }

    /** One turn of the controller's thread; returns when it next needs to run. */
    public long runTurn() {
        return turns.runTurn();
    }

    private final class Gateway implements ControllerGateway {
        private final int nodeId;
        private final MetadataLoader loader;
        private final ControllerQueues queues;
        private final AppendTraces traces;

        Gateway(int nodeId, MetadataLoader loader, ControllerQueues queues, AppendTraces traces) {
            this.nodeId = nodeId;
            this.loader = loader;
            this.queues = queues;
            this.traces = traces;
        }

        @Override
        public int nodeId() {
            return nodeId;
        }

        @Override
        public boolean isActive() {
            return turns.isActive();
        }

        @Override
        public boolean submit(ControllerOperation operation) {
            return queues.offerRequest(operation);
        }

        @Override
        public boolean submit(ControllerOperation operation, RequestTrace trace) {
            if (!trace.isOn()) {
                return submit(operation);
            }
            return queues.offerRequest((controller, nowMs) -> {
                trace.mark(RequestTrace.Stage.RUN_STARTED);
                traces.begin(trace);
                try {
                    operation.run(controller, nowMs);
                } finally {
                    traces.end();
                }
            });
        }

        @Override
        public MetadataImage committedImage() {
            return loader.image();
        }

        @Override
        public int knownControllerId() {
            return stateMachine.knownLeaderId();
        }
    }
}

package io.metaquorum.sim.cluster;

import io.metaquorum.raft.RaftStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The nodes of one simulated cluster, in id order: voters first ({@code 1..V}), then
 * observers. Queries only; faults and workload act on the nodes themselves.
 */
public final class SimCluster {
    private final List<SimNode> nodes;
    private final List<SimNode> voters = new ArrayList<>();
    private final List<SimNode> observers = new ArrayList<>();

    public SimCluster(List<SimNode> nodes) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).nodeId() != i + 1) {
                throw new IllegalArgumentException("node ids must be 1..N in order; position " + i + " holds node "
                        + nodes.get(i).nodeId());
            }
        }
        this.nodes = List.copyOf(nodes);
        for (SimNode node : nodes) {
            (node.isVoter() ? voters : observers).add(node);
        }
    }

    public List<SimNode> nodes() {
        return nodes;
    }

    public List<SimNode> voters() {
        return voters;
    }

    public List<SimNode> observers() {
        return observers;
    }

    public SimNode node(int nodeId) {
        for (SimNode node : nodes) {
            if (node.nodeId() == nodeId) {
                return node;
            }
        }
        throw new IllegalArgumentException("no node " + nodeId);
    }

    public int maxNodeId() {
        return nodes.get(nodes.size() - 1).nodeId();
    }

    public int majority() {
        return voters.size() / 2 + 1;
    }

    public List<SimNode> running() {
        List<SimNode> running = new ArrayList<>();
        for (SimNode node : nodes) {
            if (node.isRunning()) {
                running.add(node);
            }
        }
        return running;
    }

    /** The running leader of the highest epoch, as a client with fresh metadata would find it. */
    public Optional<SimNode> leader() {
        SimNode best = null;
        int bestEpoch = -1;
        for (SimNode node : nodes) {
            if (node.isRunning()) {
                RaftStatus status = node.status();
                if (status.isLeader() && status.epoch() > bestEpoch) {
                    best = node;
                    bestEpoch = status.epoch();
                }
            }
        }
        return Optional.ofNullable(best);
    }
}

package io.metaquorum.sim.workload;

import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.network.LinkTable;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

/**
 * Alternates stable periods and partitions, each of a random length (TigerBeetle's packet
 * simulator does the same: a partition that flaps every millisecond tests little). A
 * partition is symmetric (one node or the leader isolated, or the cluster split in two) or
 * one-way (the leader can send but not receive, a node can receive but not send, or random
 * directed links cut), as the seed's faults allow. Every partition lasts at least
 * {@link #STABILITY_MIN_MS}.
 */
final class PartitionPlanner {
    static final long STABILITY_MIN_MS = 200;

    private final EventScheduler scheduler;
    private final LinkTable links;
    private final SimCluster cluster;
    private final Random random;
    private final FaultProfile profile;
    private final FaultListener listener;
    private boolean stopped;
    private String currentLabel;
    private long currentStartMs;
    private long cuts;

    PartitionPlanner(EventScheduler scheduler, LinkTable links, SimCluster cluster, Random random,
                     FaultProfile profile, FaultListener listener) {
        this.scheduler = scheduler;
        this.links = links;
        this.cluster = cluster;
        this.random = random;
        this.profile = profile;
        this.listener = listener;
    }

    void start() {
        scheduleCut();
    }

    /** How many partitions were cut. */
    long cutCount() {
        return cuts;
    }

    /** Heals every link for good. */
    void stop() {
        stopped = true;
        healLinks();
    }

    private void scheduleCut() {
        long wait = FaultInjector.exponential(random, profile.schedule().partitionHealthyMeanMs());
        scheduler.scheduleAfter(wait, EventKind.FAULT, -1, this::cut);
    }

    private void cut() {
        if (stopped) {
            return;
        }
        if (cluster.nodes().size() < 2) {
            return; // Nothing to partition.
        }
        boolean symmetric = profile.has(FaultKind.PARTITION);
        boolean oneWay = profile.has(FaultKind.ONE_WAY);
        currentLabel = symmetric && (!oneWay || random.nextBoolean()) ? cutSymmetric() : cutOneWay();
        currentStartMs = scheduler.nowMs();
        cuts++;
        long duration = Math.max(STABILITY_MIN_MS, FaultInjector.exponential(random, profile.schedule().partitionMeanMs()));
        scheduler.scheduleAfter(duration, EventKind.FAULT, -1, () -> {
            if (!stopped) {
                healLinks();
                scheduleCut();
            }
        });
    }

    private String cutSymmetric() {
        List<Integer> ids = nodeIds();
        switch (random.nextInt(3)) {
            case 0 -> {
                int node = targetNode();
                isolate(node);
                return "isolate " + node;
            }
            case 1 -> {
                int leader = cluster.leader().map(SimNode::nodeId).orElseGet(this::targetNode);
                isolate(leader);
                return "isolate leader " + leader;
            }
            default -> {
                for (int i = ids.size() - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    ids.set(i, ids.set(j, ids.get(i)));
                }
                int split = 1 + random.nextInt(ids.size() - 1);
                List<Integer> left = ids.subList(0, split);
                List<Integer> right = ids.subList(split, ids.size());
                for (int a : left) {
                    for (int b : right) {
                        links.cutBoth(a, b);
                    }
                }
                return "split " + join(left) + " | " + join(right);
            }
        }
    }

    private String cutOneWay() {
        List<Integer> ids = nodeIds();
        switch (random.nextInt(3)) {
            case 0 -> {
                int leader = cluster.leader().map(SimNode::nodeId).orElseGet(this::targetNode);
                for (int other : ids) {
                    links.cut(other, leader);
                }
                return "leader " + leader + " sends, cannot receive";
            }
            case 1 -> {
                int node = targetNode();
                for (int other : ids) {
                    links.cut(node, other);
                }
                return node + " receives, cannot send";
            }
            default -> {
                for (int a : ids) {
                    for (int b : ids) {
                        if (random.nextInt(4) == 0) {
                            links.cut(a, b);
                        }
                    }
                }
                return "cut links " + links.describe();
            }
        }
    }

    private void isolate(int node) {
        for (int other : nodeIds()) {
            links.cutBoth(node, other);
        }
    }

    private int targetNode() {
        List<SimNode> nodes = cluster.nodes();
        return nodes.get(random.nextInt(nodes.size())).nodeId();
    }

    private List<Integer> nodeIds() {
        List<Integer> ids = new ArrayList<>();
        for (SimNode node : cluster.nodes()) {
            ids.add(node.nodeId());
        }
        return ids;
    }

    private void healLinks() {
        if (currentLabel != null) {
            listener.onFault("partition: " + currentLabel, -1, currentStartMs, scheduler.nowMs());
            currentLabel = null;
        }
        links.healLinks();
    }

    private static String join(List<Integer> ids) {
        StringJoiner joiner = new StringJoiner(",");
        ids.forEach(id -> joiner.add(Integer.toString(id)));
        return joiner.toString();
    }
}

package io.metaquorum.raft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.core.CoreCluster.Node;
import io.metaquorum.raft.core.CoreCluster.RecordingListener;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * Under crashes, restarts, isolation and resignations, every replica's leadership reports stay
 * well formed: a "lead" is followed by exactly one "resign" of the same epoch before any other
 * "lead", a replica is told it leads only an epoch it was told it leads in, reported epochs
 * never go back within an incarnation, and no two replicas are told they lead the same epoch.
 */
class LeadershipReportPropertyTest {

    @Property(tries = 40)
    void leadershipReportsStayPairedUnderFaults(@ForAll long seed) {
        CoreCluster cluster = new CoreCluster(3, 1, seed);
        Random random = new Random(seed);
        TreeSet<Integer> crashed = new TreeSet<>();
        for (int action = 0; action < 25; action++) {
            int nodeId = 1 + random.nextInt(3);
            switch (random.nextInt(6)) {
                case 0 -> {
                    if (crashed.isEmpty()) {
                        cluster.crash(nodeId);
                        crashed.add(nodeId);
                    }
                }
                case 1 -> {
                    if (!crashed.isEmpty()) {
                        cluster.restart(crashed.pollFirst());
                    }
                }
                case 2 -> cluster.isolate(nodeId);
                case 3 -> cluster.heal();
                case 4 -> {
                    Node leader = cluster.leader();
                    if (leader != null) {
                        leader.core.resign(cluster.nowMs);
                    }
                }
                default -> { }
            }
            cluster.runFor(100 + random.nextInt(3_000));
        }
        cluster.heal();
        crashed.forEach(cluster::restart);
        // Once healed, some leader is eventually told it leads its epoch.
        cluster.runUntil(() -> cluster.leader() != null && toldItLeads(cluster.leader()), 30_000);

        TreeMap<Integer, Integer> leaderOfEpoch = new TreeMap<>();
        long resigns = 0;
        for (Node node : cluster.nodes.values()) {
            checkWellFormed(node.id, node.listener.leadership, leaderOfEpoch);
            resigns += node.listener.leadership.stream().filter(r -> r.startsWith("resign ")).count();
        }
        Statistics.label("leaderships reported").collect(Math.min(leaderOfEpoch.size(), 5) + (leaderOfEpoch.size() >= 5 ? "+" : ""));
        Statistics.label("resignations reported").collect(resigns > 0);
    }

    private static boolean toldItLeads(Node leader) {
        List<String> reports = leader.listener.leadership;
        return !reports.isEmpty()
                && reports.get(reports.size() - 1).startsWith("lead " + leader.status().epoch() + " from ");
    }

    private static void checkWellFormed(int nodeId, List<String> reports, TreeMap<Integer, Integer> leaderOfEpoch) {
        String context = "node " + nodeId + ": " + reports;
        Integer leading = null;
        int knownLeader = -1;
        int knownEpoch = 0;
        for (String report : reports) {
            String[] words = report.split(" ");
            if (report.equals(RecordingListener.RESTART)) {
                // A crash ends a leadership without a report: the state machine restarts from nothing.
                leading = null;
                knownLeader = -1;
                knownEpoch = 0;
            } else if (words[0].equals("leader")) {
                int leaderId = Integer.parseInt(words[1]);
                int epoch = Integer.parseInt(words[3]);
                assertTrue(epoch >= knownEpoch, "epoch went back: " + context);
                assertTrue(epoch != knownEpoch || leaderId != knownLeader, "reported twice: " + context);
                assertNull(leading, "leader change reported while still leading " + leading + ": " + context);
                knownLeader = leaderId;
                knownEpoch = epoch;
            } else if (words[0].equals("lead")) {
                int epoch = Integer.parseInt(words[1]);
                assertNull(leading, "lead without resigning " + leading + ": " + context);
                assertEquals(nodeId, knownLeader, "led without being the known leader: " + context);
                assertEquals(knownEpoch, epoch, "led another epoch than the known one: " + context);
                Integer other = leaderOfEpoch.put(epoch, nodeId);
                assertTrue(other == null || other == nodeId, "epoch " + epoch + " led by " + other + " and " + nodeId);
                leading = epoch;
            } else {
                int epoch = Integer.parseInt(words[1]);
                assertEquals(leading, epoch, "resign without leading it: " + context);
                leading = null;
            }
        }
    }
}

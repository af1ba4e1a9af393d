package io.metaquorum.raft.core;

import io.metaquorum.raft.RoleName;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.core.CoreCluster.Node;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** End-to-end behaviour of real cores in the small deterministic cluster. */
class CoreClusterTest {

    @Test
    void threeVotersElectOneLeaderAndCommitOnAll() {
        CoreCluster cluster = new CoreCluster(3, 0, 1);
        Node leader = cluster.awaitLeader();
        long last = cluster.appendThroughLeader("a", "b", "c");
        cluster.runUntil(() -> cluster.nodes.values().stream().allMatch(n -> n.listener.committed.size() == 3), 5_000);
        for (Node node : cluster.nodes.values()) {
            assertEquals(List.of("a", "b", "c"), node.listener.committed);
            assertTrue(node.status().highWatermark() > last);
        }
        assertEquals(1, cluster.nodes.values().stream().filter(n -> n.status().isLeader()).count());
        assertEquals(leader.id, cluster.leader().id);
    }

    @Test
    void singleVoterCommitsAlone() {
        CoreCluster cluster = new CoreCluster(1, 0, 2);
        cluster.appendThroughLeader("x");
        cluster.runUntil(() -> cluster.node(1).listener.committed.equals(List.of("x")), 5_000);
    }

    @Test
    void observersFindTheLeaderAndReplicate() {
        CoreCluster cluster = new CoreCluster(3, 2, 3);
        cluster.appendThroughLeader("one", "two");
        cluster.runUntil(() -> cluster.node(4).listener.committed.size() == 2
                && cluster.node(5).listener.committed.size() == 2, 10_000);
        assertEquals(List.of("one", "two"), cluster.node(5).listener.committed);
    }

    @Test
    void crashedLeaderIsReplacedFastAndKeepsCommittedRecords() {
        CoreCluster cluster = new CoreCluster(3, 0, 4);
        Node old = cluster.awaitLeader();
        cluster.appendThroughLeader("kept");
        cluster.runUntil(() -> cluster.nodes.values().stream().allMatch(n -> n.listener.committed.size() == 1), 5_000);
        cluster.crash(old.id);
        long crashedAt = cluster.nowMs;
        Node next = cluster.awaitLeader();
        assertNotEquals(old.id, next.id);
        // Fast failover: well within the 2 s fetch timeout because the connection reset is seen.
        assertTrue(cluster.nowMs - crashedAt < 1_000, "failover took " + (cluster.nowMs - crashedAt) + " ms");
        cluster.appendThroughLeader("after");
        cluster.restart(old.id);
        cluster.runUntil(() -> cluster.node(old.id).listener.committed.equals(List.of("kept", "after")), 10_000);
    }

    @Test
    void gracefulResignationHandsOverWithoutAnElectionTimeout() {
        CoreCluster cluster = new CoreCluster(3, 0, 5);
        Node old = cluster.awaitLeader();
        cluster.appendThroughLeader("x");
        cluster.runUntil(() -> cluster.nodes.values().stream().allMatch(n -> n.listener.committed.size() == 1), 5_000);
        old.core.beginShutdown(cluster.nowMs);
        long resignedAt = cluster.nowMs;
        cluster.runUntil(() -> cluster.leader() != null && cluster.leader().id != old.id, 5_000);
        assertTrue(cluster.nowMs - resignedAt < 200, "handoff took " + (cluster.nowMs - resignedAt) + " ms");
        assertTrue(old.core.isShutdownComplete(cluster.nowMs));
    }

    @Test
    void isolatedLeaderResignsByCheckQuorumAndTheMajorityMovesOn() {
        CoreCluster cluster = new CoreCluster(3, 0, 6);
        Node old = cluster.awaitLeader();
        int oldEpoch = old.status().epoch();
        cluster.isolate(old.id);
        cluster.runUntil(() -> !old.status().isLeader(), 10_000);
        cluster.runUntil(() -> cluster.nodes.values().stream()
                .anyMatch(n -> n.id != old.id && n.status().isLeader()), 10_000);
        cluster.heal();
        cluster.runUntil(() -> old.status().epoch() > oldEpoch && old.status().leaderId() >= 0, 10_000);
        assertEquals(RoleName.FOLLOWER, old.status().role());
    }

    /** A snapshot written off the driver can be overtaken by a newer one before it is registered. */
    @Test
    void aSnapshotOvertakenBeforeRegistrationIsDiscarded() {
        CoreCluster cluster = new CoreCluster(3, 0, 5);
        Node leader = cluster.awaitLeader();
        cluster.appendThroughLeader("a");
        cluster.runUntil(() -> leader.listener.committed.size() == 1, 5_000);
        SnapshotWriter older = leader.log.createSnapshot(leader.core.snapshotIdAt(leader.status().appliedOffset()));
        older.append(CoreCluster.snapshotOf(older.id(), List.of("a")));
        older.freeze();
        cluster.appendThroughLeader("b");
        cluster.runUntil(() -> leader.listener.committed.size() == 2, 5_000);
        long applied = leader.status().appliedOffset();
        SnapshotWriter newer = leader.log.createSnapshot(leader.core.snapshotIdAt(applied));
        newer.append(CoreCluster.snapshotOf(newer.id(), List.of("a", "b")));
        newer.freeze();
        assertTrue(leader.core.createSnapshot(newer));
        assertFalse(leader.core.createSnapshot(older), "older than the log start: discarded");
        assertEquals(applied, leader.status().logStartOffset());
        assertEquals(newer.id(), leader.log.latestSnapshot().orElseThrow());
    }

    /** The cluster's FetchSnapshot chunks are 256 bytes: this snapshot takes dozens of them. */
    @Test
    void aSnapshotLargerThanOneChunkIsFetchedChunkByChunk() {
        CoreCluster cluster = new CoreCluster(3, 0, 11);
        Node leader = cluster.awaitLeader();
        Node lagging = cluster.nodes.values().stream().filter(n -> n.id != leader.id).findFirst().orElseThrow();
        cluster.crash(lagging.id);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            values.add(String.format("value-%04d", i));
        }
        for (int from = 0; from < values.size(); from += 50) {
            cluster.appendThroughLeader(values.subList(from, from + 50).toArray(new String[0]));
        }
        cluster.runUntil(() -> leader.listener.committed.size() == values.size(), 10_000);
        OffsetAndEpoch snapshotId = leader.core.snapshotIdAt(leader.status().appliedOffset());
        byte[] content = CoreCluster.snapshotOf(snapshotId, values);
        SnapshotWriter writer = leader.log.createSnapshot(snapshotId);
        for (int from = 0; from < content.length; from += 100) {
            writer.append(java.util.Arrays.copyOfRange(content, from, Math.min(content.length, from + 100)));
        }
        writer.freeze();
        assertTrue(leader.core.createSnapshot(writer));
        assertTrue(content.length > 10 * 256, "larger than ten chunks: " + content.length);
        cluster.appendThroughLeader("after");
        cluster.restart(lagging.id);
        List<String> expected = new ArrayList<>(values);
        expected.add("after");
        cluster.runUntil(() -> lagging.listener.committed.equals(expected), 20_000);
        OffsetAndEpoch id = lagging.log.latestSnapshot().orElseThrow();
        assertEquals(leader.log.latestSnapshot().orElseThrow(), id);
        assertArrayEquals(content, lagging.log.readSnapshot(id, 0, content.length), "the chunks reassemble the file");
    }

    @Test
    void laggingFollowerCatchesUpThroughFetchSnapshot() {
        CoreCluster cluster = new CoreCluster(3, 0, 7);
        Node leader = cluster.awaitLeader();
        Node lagging = cluster.nodes.values().stream().filter(n -> n.id != leader.id).findFirst().orElseThrow();
        cluster.crash(lagging.id);
        cluster.appendThroughLeader("a", "b");
        cluster.runUntil(() -> leader.listener.committed.size() == 2, 5_000);
        long applied = leader.status().appliedOffset();
        SnapshotWriter writer = leader.log.createSnapshot(leader.core.snapshotIdAt(applied));
        byte[] content = CoreCluster.snapshotOf(writer.id(), List.of("a", "b"));
        writer.append(java.util.Arrays.copyOfRange(content, 0, 10));
        writer.append(java.util.Arrays.copyOfRange(content, 10, content.length));
        writer.freeze();
        assertTrue(leader.core.createSnapshot(writer));
        assertEquals(applied, leader.status().logStartOffset());
        cluster.appendThroughLeader("c");
        cluster.restart(lagging.id);
        cluster.runUntil(() -> lagging.listener.committed.equals(List.of("a", "b", "c")), 10_000);
        assertEquals(1, lagging.listener.snapshotsLoaded.size());
        assertNotNull(lagging.log.latestSnapshot().orElse(null));
    }

    @Test
    void allNodesKilledAtOnceRecover() {
        CoreCluster cluster = new CoreCluster(3, 0, 8);
        cluster.appendThroughLeader("before");
        cluster.runUntil(() -> cluster.nodes.values().stream().allMatch(n -> n.listener.committed.size() == 1), 5_000);
        for (int id = 1; id <= 3; id++) {
            cluster.crash(id);
        }
        for (int id = 1; id <= 3; id++) {
            cluster.restart(id);
        }
        cluster.appendThroughLeader("after");
        cluster.runUntil(() -> cluster.nodes.values().stream()
                .allMatch(n -> n.listener.committed.equals(List.of("before", "after"))), 10_000);
    }
}

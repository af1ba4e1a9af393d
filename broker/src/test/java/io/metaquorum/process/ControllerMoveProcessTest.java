package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.NodeEndpoint;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A controller moved to another port, as an operator meets it (KIP-853 UpdateRaftVoter): a
 * follower controller stopped with SIGTERM, its {@code listeners} and its own
 * {@code controller.quorum.voters} entry changed to a new port, started again. No command is
 * run: the node asks the leader to update its entry itself, and the other controllers, whose
 * configurations still name the old port, learn the new one from the voter set in the log.
 * With the leader then killed, the moved controller and the one left elect a leader and commit
 * in its epoch, which needs both of them, so each reaches the other.
 */
class ControllerMoveProcessTest {
    private ControllerCluster cluster;

    @AfterEach
    void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Whether node {@code asked} says {@code id} listens at {@code port} (DescribeQuorum's nodes). */
    private Optional<DescribeQuorumResponse> listsAt(int asked, int id, int port) {
        return cluster.describe(asked).filter(r -> r.getNodesList().stream()
                .anyMatch(n -> n.getNodeId() == id && n.getPort() == port));
    }

    @Test
    void aMovedControllerUpdatesItsEntryAndIsReachedAtItsNewPort(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(), 0);
        int leader = cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0).leaderId();
        int moved = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();
        int other = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader && id != moved).findFirst()
                .orElseThrow();
        HostPort newListener = new HostPort("127.0.0.1", PreassignedPorts.freeBase(1) + 1);

        cluster.terminate(moved);
        cluster.moveListener(moved, newListener);
        cluster.restart(moved);

        cluster.await("leader " + leader + " lists node " + moved + " at " + newListener,
                () -> listsAt(leader, moved, newListener.port()));
        cluster.await("node " + other + " lists node " + moved + " at " + newListener + " too",
                () -> listsAt(other, moved, newListener.port()));
        // The leader now, which a busy machine may have changed since: any voter but the moved one will do.
        QuorumReport before = cluster.awaitLeaderReport("a leader other than node " + moved,
                r -> r.leaderId() > 0 && r.leaderId() != moved);
        int killed = before.leaderId();
        int survivor = ControllerCluster.NODE_IDS.stream().filter(id -> id != killed && id != moved).findFirst()
                .orElseThrow();

        cluster.killHard(killed);
        QuorumReport after = cluster.awaitLeaderReport("a new leader that committed in its epoch with both voters "
                + "left", r -> r.leaderId() > 0 && r.leaderId() != killed
                && r.highWatermark() > before.highWatermark()
                && r.voters().stream().filter(v -> v.nodeId() != killed)
                        .allMatch(v -> v.logEndOffset() >= r.highWatermark()));
        assertTrue(after.leaderId() == moved || after.leaderId() == survivor, after.toString());
        DescribeQuorumResponse fromMoved = cluster.await("node " + moved + " answering at " + newListener,
                () -> cluster.describe(moved));
        assertTrue(fromMoved.getNodesList().stream().map(NodeEndpoint::getNodeId).anyMatch(id -> id == survivor),
                fromMoved.toString());
    }
}

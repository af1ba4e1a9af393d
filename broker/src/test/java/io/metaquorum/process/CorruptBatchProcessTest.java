package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.server.ConfigKeys;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.rocksdb.RocksDBException;

/**
 * A batch corrupted on a stopped node's disk is never used: when the restarted node reads it
 * (replaying its committed log into the state machine) the node stops with a message naming
 * the batch's offset, and the other two go on committing.
 */
class CorruptBatchProcessTest {
    private static final byte[] GARBAGE = {(byte) 0xff, 0x01, 0x02, 0x03, (byte) 0xfe};

    private ControllerCluster cluster;

    @AfterEach
    void stopEveryProcess() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void corruptStoredBatchStopsTheNodeNamingItsOffset(TestInfo test) throws RocksDBException {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(ConfigKeys.IDLE_INTERVAL_MS, "20"));
        QuorumReport written = cluster.awaitAllCaughtUp("a leader with 60 committed records and every voter caught up",
                60);
        int follower = ControllerCluster.NODE_IDS.stream().filter(id -> id != written.leaderId()).findFirst()
                .orElseThrow();
        assertEquals(ControllerProcess.EXIT_SIGTERM, cluster.terminate(follower), "exit status of SIGTERM");

        long corruptOffset = StoredBatchCorruption.overwriteMiddleBatch(cluster.node(follower).metadataDir(), GARBAGE);
        QuorumReport stopped = cluster.awaitLeaderReport("a leader after the follower stopped", r -> true);
        assertTrue(corruptOffset > 0 && corruptOffset < stopped.highWatermark(), "the corrupt batch at "
                + corruptOffset + " is committed (below " + stopped.highWatermark() + "): the node must read it");

        cluster.restartExpectingExit(follower);
        int exitCode = cluster.node(follower).awaitExit(ControllerCluster.WAIT_MS);
        String log = cluster.node(follower).logOfThisIncarnation();
        assertNotEquals(0, exitCode, "exit status of the node with the corrupt batch:\n" + log);
        assertTrue(log.contains("offset " + corruptOffset), "the node's output names offset " + corruptOffset + ":\n"
                + log);
        assertTrue(log.contains("corrupt metadata log batch at offset " + corruptOffset), log);
        assertFalse(RoleChange.parse(log).stream().anyMatch(c -> c.toRole().equals("LEADER")),
                "the node with the corrupt batch never led:\n" + log);

        cluster.awaitLeaderReport("the two healthy nodes go on committing",
                r -> r.highWatermark() > stopped.highWatermark() + 20);
    }
}

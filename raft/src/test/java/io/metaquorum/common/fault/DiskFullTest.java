package io.metaquorum.common.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DiskFullTest {
    @Test
    void findsEnospcAnywhereInTheCauseChain() {
        IOException io = new IOException("No space left on device");
        RuntimeException wrapped = new IllegalStateException("writing snapshot 5 failed", new UncheckedIOException(io));
        assertEquals(Optional.of("java.io.IOException: No space left on device"), DiskFull.cause(wrapped));
        assertTrue(DiskFull.isCause(wrapped));
    }

    @Test
    void otherFailuresAreNotADiskFull() {
        assertFalse(DiskFull.isCause(new IOException("Input/output error")));
        assertFalse(DiskFull.isCause(new IllegalStateException((String) null)));
    }

    @Test
    void stopLineIsOneLineWithTheContextThePathAndTheRemedy() {
        RuntimeException failure = new RuntimeException("RocksDB synced write failed in /data/rocksdb: While appending to"
                + " file: /data/rocksdb/000011.log: No space left on device");
        String line = DiskFull.stopLine("[node 2] the Raft driver stopped on a fault: " + failure, failure);
        assertFalse(line.contains("\n"), line);
        assertTrue(line.startsWith("[node 2] the Raft driver stopped on a fault: "), line);
        assertTrue(line.contains("/data/rocksdb/000011.log: No space left on device"), line);
        assertTrue(line.contains("free space on it and restart the node"), line);
    }

    @Test
    void stopLineAddsTheCauseWhenTheContextLacksIt() {
        IOException io = new IOException("No space left on device");
        String line = DiskFull.stopLine("[node 1] writing snapshot 00000000000000000100-0000000001 failed\nagain",
                new UncheckedIOException("/data/snapshots/x.tmp", io));
        assertEquals("[node 1] writing snapshot 00000000000000000100-0000000001 failed; again: /data/snapshots/x.tmp: No space left on device"
                + " -- the disk is full: free space on it and restart the node; it recovers what it had from its log"
                + " and catches up from the quorum", line);
    }
}

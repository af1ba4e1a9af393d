package io.metaquorum.sim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimDiskTest {
    private static RecordBatch batch(long base, int epoch, int records) {
        List<ByteString> content = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            content.add(ByteString.copyFromUtf8("record-" + (base + i)));
        }
        return RecordBatches.build(base, epoch, 0, false, content);
    }

    private static SimDisk disk(DiskProfile profile) {
        return new SimDisk(1, new Random(1), profile);
    }

    private static SimRaftLog open(SimDisk disk) {
        return SimRaftLog.open(disk, LogFaultMode.CORRECT, LogObserver.NONE);
    }

    /** A random source whose every draw is the smallest: keeps nothing, tears always. */
    private static Random lowestDraws() {
        return new Random(0) {
            private static final long serialVersionUID = 1L;

            @Override
            public int nextInt(int bound) {
                return 0;
            }

            @Override
            public double nextDouble() {
                return 0.0;
            }
        };
    }

    @Test
    void aCrashLosesEverythingNotSynced() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 3));
        log.append(batch(3, 1, 2));
        log.flush();
        log.append(batch(5, 1, 4));
        assertEquals(9, log.endOffset());
        assertEquals(5, log.flushedEndOffset());
        assertTrue(log.crash(), "unsynced records were lost");
        SimRaftLog recovered = open(disk);
        assertEquals(5, recovered.endOffset());
        assertEquals(5, recovered.flushedEndOffset());
        assertTrue(disk.durablyStores(4, 1));
        assertFalse(disk.durablyStores(5, 1));
    }

    @Test
    void aCrashWithNothingPendingLosesNothing() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 2));
        log.flush();
        assertFalse(log.crash());
        assertEquals(2, open(disk).endOffset());
    }

    @Test
    void aTornLastBatchIsCaughtByItsCrcAndDropped() {
        SimDisk disk = new SimDisk(1, lowestDraws(), new DiskProfile(1, 1, 0, 0, 0, true, 1.0));
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 2));
        log.flush();
        log.append(batch(2, 1, 3));
        assertTrue(log.crash());
        assertEquals(1, disk.tornBatchCount());
        assertEquals(5, disk.durableEndOffset(), "the torn batch is on the disk");
        assertFalse(disk.durablyStores(3, 1), "but it is not a stored record");
        SimRaftLog recovered = open(disk);
        assertTrue(recovered.recoveredTornBatch());
        assertEquals(2, recovered.endOffset());
    }

    @Test
    void corruptionBeforeTheLastBatchStopsTheNode() {
        SimDisk disk = disk(DiskProfile.reliable());
        RecordBatch good = batch(0, 1, 2);
        disk.log().append(good.toBuilder().setAppendTimeMs(good.getAppendTimeMs() + 1).build());
        disk.log().append(batch(2, 1, 2));
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> open(disk));
        assertEquals(0, e.offset());
    }

    @Test
    void anUntidyCrashKeepsAPrefixOfThePendingWrites() {
        Random keepAll = new Random(0) {
            private static final long serialVersionUID = 1L;

            @Override
            public int nextInt(int bound) {
                return bound - 1;
            }
        };
        SimDisk disk = new SimDisk(1, keepAll, new DiskProfile(1, 1, 0, 0, 0, true, 0));
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 1));
        log.append(batch(1, 1, 1));
        assertFalse(log.crash(), "every pending write happened to land");
        assertEquals(2, open(disk).endOffset());
    }

    @Test
    void aTruncationIsDurableWhenItReturns() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 10));
        log.flush();
        log.truncateTo(5);
        assertEquals(5, disk.durableEndOffset(), "the truncation reached the disk before returning");
        assertFalse(log.crash(), "nothing was pending");
        SimRaftLog recovered = open(disk);
        assertEquals(5, recovered.endOffset(), "the truncated tail does not come back");
        assertFalse(disk.durablyStores(5, 1));
    }

    /**
     * The shape of a lost truncation: a follower cuts its tail on the leader's word, appends
     * the leader's records unsynced and crashes before the sync; keeping none of the pending
     * appends must not bring the old tail back.
     */
    @Test
    void aCrashAfterTruncateAndUnsyncedAppendsKeepsTheTruncation() {
        SimDisk disk = new SimDisk(1, lowestDraws(), new DiskProfile(1, 1, 0, 0, 0, true, 0));
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 10));
        log.flush();
        log.truncateTo(4);
        log.append(batch(4, 2, 3));
        assertTrue(log.crash(), "the unsynced appends were lost");
        SimRaftLog recovered = open(disk);
        assertEquals(4, recovered.endOffset());
        assertEquals(1, recovered.lastEpoch());
    }

    @Test
    void aTruncationSyncsTheAppendsBeforeIt() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 3));
        log.append(batch(3, 1, 4));
        log.truncateTo(5);
        assertFalse(log.crash(), "the truncation's sync took the pending appends with it");
        SimRaftLog recovered = open(disk);
        assertEquals(5, recovered.endOffset());
        assertEquals(1, recovered.read(3, 1000).get(0).getEpoch());
        assertFalse(disk.durablyStores(5, 1));
    }

    @Test
    void aSnapshotIsDurableAtOnce() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 4));
        log.append(batch(4, 1, 4));
        log.flush();
        log.installSnapshot(new OffsetAndEpoch(4, 1), new byte[] {1, 2, 3});
        log.crash();
        SimRaftLog recovered = open(disk);
        assertEquals(4, recovered.startOffset());
        assertEquals(8, recovered.endOffset());
        assertEquals(new OffsetAndEpoch(4, 1), recovered.latestSnapshot().orElseThrow());
        assertTrue(disk.durablyStores(2, 99), "records inside the snapshot count as stored");
    }

    @Test
    void writeErrorsStopTheWriter() {
        SimDisk disk = disk(new DiskProfile(1, 1, 0, 0, 1.0, false, 0));
        SimRaftLog log = SimRaftLog.open(disk, LogFaultMode.CORRECT, LogObserver.NONE);
        assertThrows(StorageException.class, () -> log.append(batch(0, 1, 1)));
        assertThrows(StorageException.class, () -> new SimQuorumStateStore(disk, true).write(new ElectionState(1, -1, 1)));
        assertEquals(2, disk.writeErrorCount());
    }

    @Test
    void ackBeforeSyncClaimsDurabilityTheDiskDoesNotHave() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = SimRaftLog.open(disk, LogFaultMode.ACK_BEFORE_SYNC, LogObserver.NONE);
        log.append(batch(0, 1, 3));
        assertEquals(3, log.flushedEndOffset());
        assertFalse(log.hasUnflushed());
        log.flush();
        assertEquals(0, disk.durableEndOffset());
        log.writeback();
        assertEquals(3, disk.durableEndOffset());
    }

    @Test
    void skipTruncationKeepsTheStaleTail() {
        SimRaftLog log = SimRaftLog.open(disk(DiskProfile.reliable()), LogFaultMode.SKIP_TRUNCATION, LogObserver.NONE);
        log.append(batch(0, 1, 5));
        log.truncateTo(2);
        assertEquals(5, log.endOffset());
    }

    @Test
    void theQuorumStateSurvivesACrash() {
        SimDisk disk = disk(DiskProfile.reliable());
        new SimQuorumStateStore(disk, true).write(new ElectionState(5, -1, 2));
        assertEquals(new ElectionState(5, -1, 2), new SimQuorumStateStore(disk, true).read().orElseThrow());
        assertEquals(5, disk.durableEpoch());
    }

    @Test
    void aVoteThatIsNotPersistedIsForgottenByTheNextProcess() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimQuorumStateStore broken = new SimQuorumStateStore(disk, false);
        broken.write(new ElectionState(5, -1, 2));
        assertEquals(new ElectionState(5, -1, 2), broken.read().orElseThrow(), "the process remembers");
        assertEquals(new ElectionState(5, -1, -1), new SimQuorumStateStore(disk, false).read().orElseThrow());
    }

    @Test
    void aWipeLeavesAFreshDisk() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 2));
        log.flush();
        new SimQuorumStateStore(disk, true).write(new ElectionState(3, 1, 1));
        disk.wipe();
        assertEquals(0, open(disk).endOffset());
        assertTrue(new SimQuorumStateStore(disk, true).read().isEmpty());
    }

    /** The wipe grace of the checkers counts a wiped voter only for what its replaced disk held, durably. */
    @Test
    void aWipedDiskRemembersWhatTheReplacedDiskHeldDurably() {
        SimDisk disk = disk(DiskProfile.reliable());
        SimRaftLog log = open(disk);
        log.append(batch(0, 1, 3));
        log.flush();
        log.append(batch(3, 2, 2));
        assertFalse(disk.storedBeforeLastWipe(0, 1), "never wiped: nothing before a wipe");
        disk.wipe();
        assertFalse(disk.durablyStores(0, 1));
        assertTrue(disk.storedBeforeLastWipe(2, 1));
        assertFalse(disk.storedBeforeLastWipe(2, 2), "another epoch");
        assertFalse(disk.storedBeforeLastWipe(3, 2), "appended, never synced");
        SimRaftLog fresh = open(disk);
        fresh.append(batch(0, 3, 1));
        fresh.flush();
        disk.wipe();
        assertFalse(disk.storedBeforeLastWipe(2, 1), "only the last wipe counts");
        assertTrue(disk.storedBeforeLastWipe(0, 3));
    }
}

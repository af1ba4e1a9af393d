package io.metaquorum.sim.workload;

import io.metaquorum.sim.machine.RecordStateMachine;
import io.metaquorum.sim.machine.AppendTracker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.RaftTimeouts;
import java.util.EnumSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimWorkloadTest {
    @Test
    void keyValueStatesWithTheSameContentHaveTheSameDigestWhateverTheHistory() {
        KeyValueModel model = new KeyValueModel(4);
        Random random = new Random(3);
        RecordStateMachine a = model.create();
        for (long id = 1; id <= 40; id++) {
            a.apply(id, model.clientRecord(id, random));
        }
        RecordStateMachine b = model.create();
        b.restore(40, a.snapshotRecords());
        assertEquals(a.digest(), b.digest());
        assertNotEquals(model.create().digest(), a.digest());
    }

    @Test
    void recordsCarryTheirAppendId() {
        KeyValueModel model = new KeyValueModel(4);
        ByteString record = model.clientRecord(123_456_789L, new Random(1));
        assertEquals(123_456_789L, model.appendIdOf(record));
        assertEquals(-1, model.appendIdOf(ByteString.copyFromUtf8("control")));
    }

    @Test
    void anAppendIsAcknowledgedOnlyWhereAndWhenItsLeaderCommitsIt() {
        AppendTracker tracker = new AppendTracker();
        long id = tracker.nextAppendId();
        tracker.onAccepted(new AppendTracker.PendingAppend(id, 1, 3, 10, 500));
        tracker.onClientRecordApplied(2, 10, id);
        tracker.onClientRecordApplied(1, 11, id);
        assertTrue(tracker.drainAcked().isEmpty());
        tracker.onClientRecordApplied(1, 10, id);
        assertEquals(1, tracker.drainAcked().size());
        assertEquals(500, tracker.latestAckedAcceptMs());
        tracker.onClientRecordApplied(1, 10, id);
        assertTrue(tracker.drainAcked().isEmpty(), "at most once");
    }

    @Test
    void faultListsParse() {
        assertEquals(EnumSet.allOf(FaultKind.class), FaultKind.parseList("all"));
        assertEquals(EnumSet.noneOf(FaultKind.class), FaultKind.parseList("none"));
        assertEquals(EnumSet.of(FaultKind.CRASH, FaultKind.ONE_WAY), FaultKind.parseList("crash, one-way"));
        assertThrows(IllegalArgumentException.class, () -> FaultKind.parseList("crash,meteor"));
    }

    @Test
    void aSwarmProfileKeepsSomeFaultsAndAnExplicitListKeepsThemAll() {
        EnumSet<FaultKind> all = EnumSet.allOf(FaultKind.class);
        FaultProfile exact = FaultProfile.draw(all, false, new Random(1), RaftTimeouts.DEFAULTS);
        assertEquals(EnumSet.complementOf(FaultKind.DRAWN_APART), exact.enabled(),
                "the silent faults and bad certificates are drawn apart");
        FaultProfile silent = exact.withSilentFaults(all, false, new Random(2));
        assertEquals(EnumSet.complementOf(EnumSet.of(FaultKind.BAD_CERTIFICATE, FaultKind.DISK_FULL,
                FaultKind.MEMBERSHIP)), silent.enabled());
        assertEquals(FaultSchedule.NEVER, silent.schedule().badCertificateMeanIntervalMs());
        FaultProfile withCertificates = silent.withBadCertificates(all, false, new Random(3));
        assertEquals(EnumSet.complementOf(EnumSet.of(FaultKind.DISK_FULL, FaultKind.MEMBERSHIP)),
                withCertificates.enabled());
        FaultProfile withFullDisks = withCertificates.withDiskFull(all, false, new Random(4));
        assertEquals(EnumSet.complementOf(EnumSet.of(FaultKind.MEMBERSHIP)), withFullDisks.enabled());
        FaultProfile withVoterChanges = withFullDisks.withMembership(all, false, new Random(5));
        assertEquals(all, withVoterChanges.enabled());
        assertEquals(withFullDisks.schedule(), withVoterChanges.schedule(), "nothing redrawn");
        assertEquals(withCertificates.schedule(), withFullDisks.schedule(), "nothing redrawn");
        assertNotEquals(FaultSchedule.NEVER, withCertificates.schedule().badCertificateMeanIntervalMs());
        assertEquals(silent.schedule().pauseMaxMs(), withCertificates.schedule().pauseMaxMs(), "nothing else redrawn");
        int differentMixes = 0;
        EnumSet<FaultKind> previous = null;
        for (int seed = 0; seed < 20; seed++) {
            EnumSet<FaultKind> mix = FaultProfile.draw(all, true, new Random(seed), RaftTimeouts.DEFAULTS).enabled();
            if (!mix.equals(previous)) {
                differentMixes++;
            }
            previous = mix;
        }
        assertTrue(differentMixes > 10, "each seed draws its own mix");
        FaultProfile none = FaultProfile.draw(EnumSet.noneOf(FaultKind.class), true, new Random(1), RaftTimeouts.DEFAULTS);
        assertEquals(0, none.network().lossProbability());
        assertEquals(FaultSchedule.NEVER, none.schedule().crashMeanIntervalMs());
    }
}

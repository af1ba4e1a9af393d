package io.metaquorum.raft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.KRaftVersionRecord;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A survivor's log as {@code mq-metadata unsafe-recover} leaves it: a VotersRecord naming only
 * this node appended at the log end in a new epoch, and the election state moved to that epoch
 * with no vote and no leader. On start the core takes that record as the active set (the
 * latest in the log, though uncommitted), elects itself in a later epoch and commits
 * everything the log held.
 */
class ForcedVoterSetStartTest {
    private static VoterSet voters(int... ids) {
        List<VoterSet.Voter> list = new java.util.ArrayList<>();
        for (int id : ids) {
            list.add(new VoterSet.Voter(new ReplicaKey(id, CoreCluster.directoryId(id)), List.of()));
        }
        return VoterSet.of(list);
    }

    private static ByteString votersRecord(VoterSet voters) {
        return ControlRecord.newBuilder().setVoters(voters.toRecord()).build().toByteString();
    }

    @Test
    void theForcedSetIsActiveAndItsOnlyVoterElectsItselfInALaterEpoch() {
        InMemoryRaftLog log = new InMemoryRaftLog();
        ByteString version = ControlRecord.newBuilder().setKraftVersion(KRaftVersionRecord.newBuilder()
                .setKraftVersion(1)).build().toByteString();
        log.append(RecordBatches.build(0, 1, 0, true, List.of(version, votersRecord(voters(1, 2, 3)))));
        log.append(RecordBatches.build(2, 2, 0, false, List.of(ByteString.copyFromUtf8("held-here"))));
        log.append(RecordBatches.build(3, 3, 0, true, List.of(votersRecord(voters(1)))));
        log.flush();
        InMemoryQuorumStateStore store = new InMemoryQuorumStateStore();
        store.write(new ElectionState(3, ElectionState.NONE, ElectionState.NONE));
        RaftConfig base = CoreCluster.config(1, List.of(1, 2, 3));
        RaftConfig config = new RaftConfig(base.clusterId(), 1, base.voterIds(), base.timeouts(), base.limits(),
                CoreCluster.directoryId(1), Optional.of(voters(1, 2, 3)));
        CoreCluster.RecordingListener listener = new CoreCluster.RecordingListener();
        long nowMs = 1_000;
        RaftCore core = new RaftCore(config, log, store, new Random(5), listener, nowMs);

        assertEquals(voters(1), core.voters(), "the latest VotersRecord in the log is the active set");
        assertEquals(RoleName.UNATTACHED, core.status().role());
        assertEquals(3, core.status().epoch());
        for (int i = 0; i < 100 && !(core.status().isLeader() && core.status().highWatermark() > 3); i++) {
            nowMs = core.poll(nowMs);
            core.takeOutbound();
            if (log.hasUnflushed()) {
                log.flush();
                nowMs = core.poll(nowMs);
                core.takeOutbound();
            }
        }

        assertTrue(core.status().isLeader(), "a single voter elects itself: " + core.status());
        assertEquals(4, core.status().epoch(), "a new epoch above the recovery's");
        assertTrue(core.status().highWatermark() > 3, "the forced VotersRecord commits: " + core.status());
        assertTrue(listener.committed.contains("held-here"), listener.committed.toString());
        assertEquals(4, store.read().orElseThrow().epoch());
    }
}

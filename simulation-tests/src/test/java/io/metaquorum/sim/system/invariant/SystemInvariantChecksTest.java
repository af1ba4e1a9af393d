package io.metaquorum.sim.system.invariant;

import static io.metaquorum.sim.system.invariant.LogScript.fence;
import static io.metaquorum.sim.system.invariant.LogScript.id;
import static io.metaquorum.sim.system.invariant.LogScript.moveLeader;
import static io.metaquorum.sim.system.invariant.LogScript.partition;
import static io.metaquorum.sim.system.invariant.LogScript.register;
import static io.metaquorum.sim.system.invariant.LogScript.remove;
import static io.metaquorum.sim.system.invariant.LogScript.topic;
import static io.metaquorum.sim.system.invariant.LogScript.unfence;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.History;
import java.util.TreeMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The system-layer image invariants on good and bad inputs. */
class SystemInvariantChecksTest {
    private static MetadataImage loaded(List<RecordBatch> batches) {
        MetadataLoader loader = new MetadataLoader("[test] ", Long.MAX_VALUE, task -> false);
        loader.handleCommit(batches);
        return loader.image();
    }

    private static LogScript cluster() {
        return new LogScript().leaderChange(1, 1).batch(register(1, 1), register(2, 2))
                .batch(unfence(1, 1), unfence(2, 2));
    }

    private static String failure(Runnable check) {
        return assertThrows(CheckFailure.class, check::run).invariant();
    }

    @Test
    void anImageLoadedFromTheCommittedLogEqualsItsReplay() {
        LogScript log = cluster().batch(topic("t", id(1)), partition(id(1), 0, 1, 1, 2));
        TopicIdReuseCheck ids = new TopicIdReuseCheck();
        ReplayedLog replayed = new ReplayedLog(ids::observe);
        log.batches().forEach(replayed::append);
        ImageReplayCheck check = new ImageReplayCheck(replayed);
        assertDoesNotThrow(() -> check.observe(4, loaded(log.batches())));
        assertDoesNotThrow(() -> check.observe(4, loaded(log.batches().subList(0, 2))), "a lagging node at a batch end");
        assertEquals(1, ids.idsSeen());
    }

    @Test
    void anImageThatSkippedOrDoubledARecordDiffers() {
        LogScript log = cluster().batch(topic("t", id(1)), partition(id(1), 0, 1, 1, 2))
                .batch(partition(id(1), 1, 2, 2, 1));
        ReplayedLog replayed = new ReplayedLog((record, offset) -> { });
        log.batches().forEach(replayed::append);
        ImageReplayCheck check = new ImageReplayCheck(replayed);
        MetadataImage correct = loaded(log.batches());
        MetadataDelta wrong = new MetadataDelta(loaded(log.batches().subList(0, 4)));
        // The last batch's record replayed at its offset, with the leader of the one before: a lost change.
        wrong.replay(partition(id(1), 1, 1, 1, 2), correct.lastCommittedOffset(), 1);
        MetadataImage skipped = wrong.apply();
        assertEquals(correct.lastCommittedOffset(), skipped.lastCommittedOffset());
        assertEquals(ImageReplayCheck.NAME, failure(() -> check.observe(3, skipped)));
        MetadataDelta ahead = new MetadataDelta(correct);
        ahead.advanceTo(correct.lastCommittedOffset() + 1, 1);
        assertEquals(ImageReplayCheck.NAME, failure(() -> check.observe(3, ahead.apply())));
    }

    @Test
    void aLeaderMustBeAnUnfencedInSyncReplica() {
        LogScript log = cluster().batch(topic("t", id(1)), partition(id(1), 0, 1, 1, 2));
        assertDoesNotThrow(() -> PartitionLeaderCheck.check(1, loaded(log.batches())));
        log.batch(fence(1, 1));
        String message = assertThrows(CheckFailure.class, () -> PartitionLeaderCheck.check(1, loaded(log.batches())))
                .getMessage();
        assertTrue(message.contains("leader 1 is fenced"), message);
    }

    @Test
    void anOfflinePartitionSaysSo() {
        LogScript log = cluster().batch(topic("t", id(1)), partition(id(1), 0, -1, 1, 2));
        assertDoesNotThrow(() -> PartitionLeaderCheck.check(1, loaded(log.batches())));
    }

    @Test
    void aLeaderThatIsNotRegisteredIsCaught() {
        LogScript log = cluster().batch(topic("t", id(1)), partition(id(1), 0, 7, 7));
        assertEquals(PartitionLeaderCheck.NAME, failure(() -> PartitionLeaderCheck.check(1, loaded(log.batches()))));
    }

    @Test
    void aBrokerLetGoMustBeFencedAndLeadNothing() {
        LogScript log = cluster().batch(topic("t", id(1)), partition(id(1), 0, 1, 1, 2),
                partition(id(1), 1, 2, 2, 1));
        CheckFailure unfenced = assertThrows(CheckFailure.class, () -> ControlledShutdownCheck.check(1,
                loaded(log.batches())));
        assertEquals(ControlledShutdownCheck.NAME, unfenced.invariant());
        assertTrue(unfenced.getMessage().contains("is not fenced"), unfenced.getMessage());
        // Fenced, but the leadership move the fencing writes beside it is not committed yet.
        log.batch(fence(1, 1));
        CheckFailure leading = assertThrows(CheckFailure.class, () -> ControlledShutdownCheck.check(1,
                loaded(log.batches())));
        assertEquals(ControlledShutdownCheck.NAME, leading.invariant());
        assertTrue(leading.getMessage().contains("still leads [t-0]"), leading.getMessage());
        log.batch(moveLeader(id(1), 0, 2, 1, 2));
        assertDoesNotThrow(() -> ControlledShutdownCheck.check(1, loaded(log.batches())));
        assertEquals(ControlledShutdownCheck.NAME, failure(() -> ControlledShutdownCheck.check(3,
                loaded(log.batches()))), "a broker that never registered");
    }

    @Test
    void aTopicWithoutPartitionsIsCaught() {
        LogScript complete = cluster().batch(topic("t", id(1)), partition(id(1), 0, 1, 1));
        assertDoesNotThrow(() -> TopicCompletenessCheck.check(1, loaded(complete.batches())));
        LogScript split = cluster().batch(topic("t", id(1)));
        assertEquals(TopicCompletenessCheck.NAME, failure(() -> TopicCompletenessCheck.check(1,
                loaded(split.batches()))));
    }

    @Test
    void aTopicIdCreatedTwiceIsCaughtEvenAfterADelete() {
        TopicIdReuseCheck check = new TopicIdReuseCheck();
        check.observe(topic("t", id(1)), 5);
        check.observe(remove(id(1)), 6);
        check.observe(topic("t", id(2)), 7);
        assertEquals(2, check.idsSeen());
        CheckFailure reused = assertThrows(CheckFailure.class, () -> check.observe(topic("u", id(1)), 9));
        assertEquals(TopicIdReuseCheck.NAME, reused.invariant());
        assertTrue(reused.getMessage().contains("'t' at offset 5"), reused.getMessage());
    }

    @Test
    void anAcknowledgedCreateOrDeleteMustBeInTheCommittedLog() {
        History<AdminInput, AdminOutput> history = new History<>();
        String idText = TopicIds.toBase64(id(1).toUuid());
        int create = history.invoke(1, new AdminInput.CreateTopic("t", 1, new TreeMap<>(), false), 0);
        history.complete(create, AdminOutput.WriteResult.ok(idText), 1);
        int validate = history.invoke(1, new AdminInput.CreateTopic("v", 1, new TreeMap<>(), true), 2);
        history.complete(validate, AdminOutput.WriteResult.ok(null), 3);
        AcknowledgedWritesCheck check = new AcknowledgedWritesCheck();
        assertEquals(AcknowledgedWritesCheck.NAME, failure(() -> check.requireReflected(history.operations())));
        check.observe(topic("t", id(1)), 5);
        assertEquals(1, check.requireReflected(history.operations()), "validate-only creates nothing to find");
        int delete = history.invoke(2, new AdminInput.DeleteTopic("t"), 6);
        history.complete(delete, AdminOutput.WriteResult.ok(idText), 7);
        assertEquals(AcknowledgedWritesCheck.NAME, failure(() -> check.requireReflected(history.operations())));
        check.observe(remove(id(1)), 8);
        assertEquals(2, check.requireReflected(history.operations()));
    }
}

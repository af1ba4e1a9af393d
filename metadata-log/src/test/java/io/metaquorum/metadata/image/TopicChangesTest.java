package io.metaquorum.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import io.vavr.collection.TreeSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a delta records as changed, how two spans' changes merge, and how updates follow one another. */
class TopicChangesTest {
    private static final UuidKey T = new UuidKey(1, 1);
    private static final UuidKey U = new UuidKey(2, 2);

    private MetadataImage image = MetadataImage.EMPTY;
    private long nextOffset;

    private ImageUpdate commit(MetadataRecord... records) {
        MetadataDelta delta = MetadataDelta.recordingChanges(image);
        for (MetadataRecord record : records) {
            delta.replay(record, nextOffset++, 1);
        }
        ImageUpdate update = new ImageUpdate(delta.apply(), image.lastCommittedOffset(), delta.topicChanges());
        image = update.image();
        return update;
    }

    private static MetadataRecord topic(String name, UuidKey id) {
        return MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(id.toUuid()))
                .build();
    }

    private static MetadataRecord partition(UuidKey id, int partition, int... replicas) {
        PartitionRecord.Builder record = PartitionRecord.newBuilder().setTopicId(id.toUuid()).setPartition(partition)
                .setLeader(replicas[0]);
        for (int replica : replicas) {
            record.addReplicas(replica).addIsr(replica);
        }
        return MetadataRecord.newBuilder().setPartition(record).build();
    }

    private MetadataRecord shrinkIsr(UuidKey id, int partition) {
        PartitionRegistration old = image.topics().topic(id).partition(partition);
        return MetadataRecord.newBuilder().setPartitionChange(PartitionChangeRecord.newBuilder()
                .setTopicId(id.toUuid()).setPartition(partition).setHasIsr(true).addIsr(old.leader())
                .setLeader(old.leader()).setLeaderEpoch(old.leaderEpoch())
                .setPartitionEpoch(old.partitionEpoch() + 1)).build();
    }

    private static MetadataRecord remove(UuidKey id) {
        return MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder().setTopicId(id.toUuid()))
                .build();
    }

    private static TopicChange partitions(int... partitions) {
        return TopicChange.ofPartitions(TreeSet.ofAll(partitions));
    }

    @Test
    void aCreatedTopicIsWholeAndAChangedOneListsItsPartitions() {
        ImageUpdate created = commit(topic("t", T), partition(T, 0, 1, 2), partition(T, 1, 2, 3),
                topic("u", U), partition(U, 0, 1, 2));
        assertEquals(TopicChange.WHOLE, created.topics().topic(T));
        assertEquals(TopicChange.WHOLE, created.topics().topic(U));
        ImageUpdate changed = commit(shrinkIsr(U, 0), partition(U, 1, 3), shrinkIsr(T, 1));
        assertEquals(partitions(1), changed.topics().topic(T));
        assertEquals(partitions(0, 1), changed.topics().topic(U));
        assertEquals(List.of(T, U), changed.topics().byId().keySet().toJavaList(), "by id, ascending");
        ImageUpdate removed = commit(shrinkIsr(T, 0), remove(T));
        assertEquals(TopicChange.WHOLE, removed.topics().topic(T), "removed: whole, its partition change absorbed");
        assertTrue(commit(MetadataRecord.newBuilder().setNoOp(
                io.metaquorum.protocol.NoOpRecord.getDefaultInstance()).build()).topics().isEmpty());
    }

    @Test
    void aTopicRemovedAndCreatedAgainInOneDeltaIsWhole() {
        commit(topic("t", T), partition(T, 0, 1));
        ImageUpdate update = commit(shrinkIsr(T, 0), remove(T), topic("t", U), partition(U, 0, 2));
        assertEquals(TopicChange.WHOLE, update.topics().topic(T));
        assertEquals(TopicChange.WHOLE, update.topics().topic(U));
    }

    @Test
    void theUnionOfTwoSpansListsWhatEitherDoesAndWholeAbsorbsPartitions() {
        ImageUpdate first = commit(topic("t", T), partition(T, 0, 1), partition(T, 1, 1));
        ImageUpdate second = commit(shrinkIsr(T, 1), topic("u", U), partition(U, 0, 1), partition(U, 1, 1));
        ImageUpdate third = commit(shrinkIsr(U, 1));
        ImageUpdate fourth = commit(shrinkIsr(U, 0));
        ImageUpdate merged = second.then(third).then(fourth);
        assertEquals(first.offset(), merged.baseOffset());
        assertSame(fourth.image(), merged.image());
        assertEquals(TopicChange.WHOLE, merged.topics().topic(U), "created in the span");
        assertEquals(partitions(1), merged.topics().topic(T));
        assertEquals(partitions(0, 1), third.topics().union(fourth.topics()).topic(U));
        assertEquals(third.topics().union(fourth.topics()), fourth.topics().union(third.topics()));
        assertTrue(merged.topics().union(TopicChanges.UNKNOWN).isUnknown());
        assertTrue(ImageUpdate.loaded(image).topics().isUnknown());
    }

    @Test
    void anUpdateThatIsNoNewerIsIgnoredAndOneAfterAGapIsRefused() {
        ImageUpdate first = commit(topic("t", T), partition(T, 0, 1));
        ImageUpdate second = commit(shrinkIsr(T, 0));
        ImageUpdate third = commit(topic("u", U));
        assertSame(second, second.then(second), "the same image published twice");
        assertSame(second, second.then(first), "an older one");
        assertThrows(InvariantViolation.class, () -> first.then(third), "the changes of the second would be lost");
        assertEquals(third.image(), first.then(ImageUpdate.loaded(third.image())).image(), "a snapshot load follows anything");
        assertThrows(InvariantViolation.class, () -> new ImageUpdate(first.image(), second.offset(), TopicChanges.NONE));
    }
}

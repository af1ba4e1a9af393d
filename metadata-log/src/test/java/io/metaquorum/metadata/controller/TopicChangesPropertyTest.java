package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicChange;
import io.metaquorum.metadata.image.TopicChanges;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.MetadataRecord;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The changes a delta records never miss one: for random logs decided by the managers (topics
 * created, deleted and grown, brokers registered, fenced and unfenced, which moves leaders and
 * ISRs), cut at random into commits whose updates are merged as a broker's mailboxes merge them
 * ({@link ImageUpdate#then}), every topic that differs between the first image and the last is
 * listed, whole when it was created or removed in between, and otherwise with every partition
 * that was added or differs.
 */
class TopicChangesPropertyTest {
    @Property(tries = 200)
    void everyTopicAndPartitionThatDiffersIsListed(@ForAll @Size(min = 1, max = 60)
                                                   List<@IntRange(min = 0, max = 1_000_000) Integer> steps,
                                                   @ForAll @IntRange(min = 0, max = 1000) int seed) {
        ControllerFixture fixture = new ControllerFixture(CreateTopicPolicy.NONE, seed);
        fixture.addBrokers(3);
        for (int step : steps) {
            ReplayDeterminismPropertyTest.step(fixture, step);
        }
        List<MetadataRecord> log = fixture.log;
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 5; trial++) {
            int base = random.nextInt(log.size() + 1);
            int end = base + random.nextInt(log.size() - base + 1);
            MetadataImage first = replay(MetadataImage.EMPTY, log, 0, base);
            ImageUpdate merged = ImageUpdate.unchanged(first);
            MetadataImage image = first;
            for (int from = base; from < end; ) {
                int to = Math.min(end, from + 1 + random.nextInt(8));
                MetadataDelta delta = MetadataDelta.recordingChanges(image);
                for (int offset = from; offset < to; offset++) {
                    delta.replay(log.get(offset), offset, fixture.epoch);
                }
                ImageUpdate update = new ImageUpdate(delta.apply(), image.lastCommittedOffset(), delta.topicChanges());
                merged = merged.then(update);
                image = update.image();
                from = to;
            }
            assertEquals(replay(MetadataImage.EMPTY, log, 0, end), image);
            assertCovers(first, merged);
        }
    }

    private static MetadataImage replay(MetadataImage image, List<MetadataRecord> log, int from, int to) {
        MetadataDelta delta = new MetadataDelta(image);
        for (int offset = from; offset < to; offset++) {
            delta.replay(log.get(offset), offset, 1);
        }
        return delta.apply();
    }

    /** Everything that differs between {@code before} and {@code update}'s image is in its changes. */
    private static void assertCovers(MetadataImage before, ImageUpdate update) {
        MetadataImage after = update.image();
        TopicChanges changes = update.topics();
        assertTrue(update.baseOffset() <= before.lastCommittedOffset());
        TreeSet<UuidKey> ids = new TreeSet<>();
        before.topics().byId().keySet().forEach(ids::add);
        after.topics().byId().keySet().forEach(ids::add);
        for (UuidKey id : ids) {
            TopicImage old = before.topics().topic(id);
            TopicImage now = after.topics().topic(id);
            TopicChange change = changes.topic(id);
            if (old == null || now == null) {
                assertNotNull(change, "topic " + id + " created or removed, not listed in " + changes);
                assertTrue(change.whole(), "topic " + id + " created or removed, listed as " + change);
                continue;
            }
            for (int p = 0; p < Math.max(old.partitionCount(), now.partitionCount()); p++) {
                if (!Objects.equals(old.partition(p), now.partition(p))) {
                    assertNotNull(change, "partition " + p + " of " + now.name() + " differs, topic not listed");
                    assertTrue(change.whole() || change.partitions().contains(p),
                            "partition " + p + " of " + now.name() + " differs, not in " + change);
                }
            }
        }
    }
}

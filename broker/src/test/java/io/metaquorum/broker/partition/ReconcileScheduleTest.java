package io.metaquorum.broker.partition;

import static io.metaquorum.broker.partition.TestImages.id;
import static io.metaquorum.broker.partition.TestImages.replicas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReconcileScheduleTest {
    private final ReconcileSchedule schedule = new ReconcileSchedule();
    private final TestImages images = new TestImages();

    private static ReconcileResult complete(long strayDeadlineMs) {
        return new ReconcileResult(true, strayDeadlineMs, 0, 0, 0, 0, 0, List.of(), List.of());
    }

    private static ReconcileResult failed() {
        return new ReconcileResult(false, Long.MAX_VALUE, 0, 0, 0, 0, 0, List.of("/a: injected"), List.of());
    }

    private static ReconcileResult creationsLeft() {
        return new ReconcileResult(false, Long.MAX_VALUE, 1024, 0, 0, 0, 0, List.of(), List.of(), true);
    }

    private MetadataImage dueAt(long nowMs) {
        return updateDueAt(nowMs).image();
    }

    private ImageUpdate updateDueAt(long nowMs) {
        Optional<ImageUpdate> due = schedule.due(nowMs);
        assertTrue(due.isPresent(), "a pass is due at " + nowMs);
        return due.get();
    }

    @Test
    void anEmptyImageIsNeverTaken() {
        assertFalse(schedule.offer(ImageUpdate.unchanged(MetadataImage.EMPTY)));
        assertTrue(schedule.due(0).isEmpty());
        assertEquals(Long.MAX_VALUE, schedule.nextDeadlineMs());
        assertTrue(schedule.reconciled().isEmpty());
    }

    @Test
    void aNewImageIsDueOnceAndAnOlderOneIsIgnored() {
        ImageUpdate first = images.create("t", id(1), replicas(4));
        ImageUpdate second = images.create("u", id(2), replicas(4));
        assertTrue(schedule.offer(first.then(second)));
        assertFalse(schedule.offer(first), "older than the newest");
        assertEquals(Long.MIN_VALUE, schedule.nextDeadlineMs(), "due at once");
        assertSame(second.image(), dueAt(0));
        schedule.onPass(second.image(), complete(Long.MAX_VALUE), 0);
        assertTrue(schedule.due(1_000_000).isEmpty(), "nothing changed, no stray waits");
        assertEquals(Long.MAX_VALUE, schedule.nextDeadlineMs());
        assertSame(second.image(), schedule.reconciled().orElseThrow());
    }

    @Test
    void aStrayFallingDueRunsThePassAgainWithTheSameImage() {
        ImageUpdate image = images.create("t", id(1), replicas(4));
        schedule.offer(image);
        schedule.onPass(dueAt(0), complete(5_000), 0);
        assertEquals(5_000, schedule.nextDeadlineMs());
        assertTrue(schedule.due(4_999).isEmpty());
        assertSame(image.image(), dueAt(5_000));
        assertTrue(updateDueAt(5_000).topics().isEmpty(), "nothing changed since the complete pass");
    }

    @Test
    void aDiskErrorIsRetriedWithADoublingBackoffThatANewImageDoesNotCutShort() {
        schedule.offer(images.create("t", id(1), replicas(4)));
        long nowMs = 0;
        long[] expectedMs = {100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000};
        for (long waitMs : expectedMs) {
            MetadataImage image = dueAt(nowMs);
            assertEquals(waitMs, schedule.onPass(image, failed(), nowMs));
            assertEquals(nowMs + waitMs, schedule.nextDeadlineMs());
            schedule.offer(images.create("t" + nowMs, id(100 + nowMs), replicas(4)));
            assertTrue(schedule.due(nowMs + waitMs - 1).isEmpty(), "still backing off after " + waitMs + " ms");
            nowMs += waitMs;
        }
        ImageUpdate newest = updateDueAt(nowMs);
        assertSame(images.image(), newest.image(), "the retry takes the newest image");
        assertEquals(-1, newest.baseOffset(), "with every change since the first image (no pass was complete)");
        assertEquals(0, schedule.onPass(newest.image(), complete(Long.MAX_VALUE), nowMs));
        schedule.offer(images.create("v", id(9_999), replicas(4)));
        assertEquals(100, schedule.onPass(dueAt(nowMs), failed(), nowMs), "a complete pass resets the backoff");
    }

    @Test
    void theImagesOfferedBetweenTwoPassesAreMergedSoThePassGetsEveryChangeSinceTheLastCompleteOne() {
        ImageUpdate first = images.create("t", id(1), replicas(4));
        schedule.offer(first);
        schedule.onPass(dueAt(0), complete(Long.MAX_VALUE), 0);
        schedule.offer(images.create("u", id(2), replicas(5)));
        schedule.offer(images.create("v", id(3), replicas(4)));
        ImageUpdate failedWith = updateDueAt(0);
        schedule.onPass(failedWith.image(), failed(), 0);
        schedule.offer(images.reassign("t", 0, 5));
        ImageUpdate due = updateDueAt(100);
        assertSame(images.image(), due.image());
        assertEquals(first.offset(), due.baseOffset(), "counted from the last complete pass, not the failed one");
        assertEquals(List.of(id(1), id(2), id(3)), due.topics().byId().keySet().toJavaList());
        schedule.onPass(due.image(), complete(Long.MAX_VALUE), 100);
        schedule.offer(images.delete("u"));
        assertEquals(List.of(id(2)), updateDueAt(100).topics().byId().keySet().toJavaList());
    }

    @Test
    void aPassStoppedAtTheCreationBoundIsFollowedAtOnceWithTheChangesSinceItsImage() {
        ImageUpdate first = images.create("t", id(1), replicas(4));
        schedule.offer(first);
        assertEquals(0, schedule.onPass(dueAt(0), creationsLeft(), 0), "no backoff: it is not a failure");
        assertEquals(Long.MIN_VALUE, schedule.nextDeadlineMs(), "the next pass is due at once");
        ImageUpdate resumed = updateDueAt(0);
        assertSame(first.image(), resumed.image());
        assertTrue(resumed.topics().byId().isEmpty(), "the changes up to the stopped pass's image are its");
        assertTrue(schedule.reconciled().isEmpty(), "nothing is reconciled until a pass completes");
        ImageUpdate second = images.create("u", id(2), replicas(4));
        schedule.offer(second);
        assertEquals(1, updateDueAt(0).topics().byId().size(), "only what changed after it");
        schedule.onPass(second.image(), complete(Long.MAX_VALUE), 0);
        assertTrue(schedule.due(0).isEmpty());
        assertSame(second.image(), schedule.reconciled().orElseThrow());
    }
}

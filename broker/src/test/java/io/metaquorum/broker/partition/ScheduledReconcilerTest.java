package io.metaquorum.broker.partition;

import static io.metaquorum.broker.partition.TestImages.id;
import static io.metaquorum.broker.partition.TestImages.replicas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.ImageUpdate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduledReconcilerTest {
    private static final Path DIR = Path.of("/data/a");
    private final InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(DIR));
    private final List<ReconcileResult> passes = new ArrayList<>();
    private final ScheduledReconciler scheduled = new ScheduledReconciler(
            new PartitionReconciler(4, List.of(DIR), 2_000, store, "[node 4] "), "[node 4] ",
            (image, result, nowMs) -> passes.add(result));
    private final TestImages images = new TestImages();

    @Test
    void runsOnePassPerImageAndRetriesADiskErrorAfterItsBackoff() {
        assertEquals(Long.MAX_VALUE, scheduled.drive(0), "nothing to do before an image");
        ImageUpdate image = images.create("t", id(1), replicas(4));
        scheduled.onImage(image);
        store.failNextOperations(1);
        assertEquals(100, scheduled.drive(0), "the retry is due after the first backoff");
        assertFalse(passes.get(0).complete());
        assertTrue(scheduled.reconciledImage().isEmpty());
        assertEquals(100, scheduled.drive(99), "not yet");
        assertEquals(1, scheduled.passes());
        assertEquals(Long.MAX_VALUE, scheduled.drive(100));
        assertTrue(passes.get(1).complete());
        assertSame(image.image(), scheduled.reconciledImage().orElseThrow());
        assertEquals(Long.MAX_VALUE, scheduled.drive(200));
        assertEquals(2, scheduled.passes(), "an unchanged image is not reconciled again");
    }
}

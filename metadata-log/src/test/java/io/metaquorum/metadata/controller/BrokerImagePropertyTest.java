package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.metadata.snapshot.TestSnapshots;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * A broker's image at offset O equals the controller's at O: the log the managers
 * decided is fed to a {@link MetadataLoader} (what a broker runs) in batches of random sizes,
 * and once, at a random batch boundary, the broker starts over from a snapshot of the
 * controller's image there (a broker restarted on a wiped disk fetches one) and goes on with
 * the tail. After every batch the loader's image {@code equals} the image a full replay gives
 * at the same offset.
 */
class BrokerImagePropertyTest {
    @Property(tries = 200)
    void everyBrokerImageEqualsTheControllersAtTheSameOffset(
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 1_000_000) Integer> steps,
            @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 1, max = 7) Integer> batchSizes,
            @ForAll @IntRange(min = 0, max = 20) int snapshotAtBatch, @ForAll @IntRange(min = 0, max = 1000) int seed) {
        ControllerFixture fixture = new ControllerFixture(CreateTopicPolicy.NONE, seed);
        fixture.addBrokers(3);
        for (int step : steps) {
            ReplayDeterminismPropertyTest.step(fixture, step);
        }
        List<MetadataRecord> log = fixture.log;
        List<MetadataImage> controller = imagesAtEveryOffset(log, fixture.epoch);
        MetadataLoader broker = newLoader();
        int offset = 0;
        for (int batch = 0; offset < log.size(); batch++) {
            if (batch == snapshotAtBatch && offset > 0) {
                broker = newLoader();
                SnapshotTask task = SnapshotTask.of(controller.get(offset), 0L);
                byte[] content = TestSnapshots.write(task, new SnapshotLimits(4, 1 << 20));
                broker.handleLoadSnapshot(task.id(), TestSnapshots.reader(task.id(), content, 64));
                assertEquals(controller.get(offset), broker.image(), "after loading the snapshot at " + offset);
            }
            int size = Math.min(batchSizes.get(batch % batchSizes.size()), log.size() - offset);
            List<ByteString> records = MetadataRecordCodec.encodeAll(log.subList(offset, offset + size));
            broker.handleCommit(List.of(RecordBatches.build(offset, fixture.epoch, 0L, false, records)));
            offset += size;
            assertEquals(controller.get(offset), broker.image(), "broker at offset " + offset);
        }
        assertEquals(fixture.image(), broker.image(), "and at the end the controller's own image");
    }

    /** Element O is the image after the records before offset O, by a full replay. */
    private static List<MetadataImage> imagesAtEveryOffset(List<MetadataRecord> log, int epoch) {
        List<MetadataImage> images = new ArrayList<>();
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        images.add(delta.apply());
        for (int offset = 0; offset < log.size(); offset++) {
            delta.replay(log.get(offset), offset, epoch);
            images.add(delta.apply());
        }
        return images;
    }

    private static MetadataLoader newLoader() {
        return new MetadataLoader("[broker] ", Long.MAX_VALUE, task -> true);
    }
}

package io.metaquorum.sim.system.invariant;

import static io.metaquorum.sim.system.invariant.LogScript.id;
import static io.metaquorum.sim.system.invariant.LogScript.partition;
import static io.metaquorum.sim.system.invariant.LogScript.remove;
import static io.metaquorum.sim.system.invariant.LogScript.topic;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.broker.partition.PartitionMetadataFile;
import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.fs.CrashMode;
import io.metaquorum.sim.system.fs.MetadataWriteOrder;
import io.metaquorum.sim.system.fs.SimFileSystem;
import io.metaquorum.sim.system.fs.SimPartitionStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A broker's directories against its image, over the simulated disk the production reconciler wrote. */
class BrokerDirectoryCheckTest {
    private static final int BROKER = 2;
    private static final long DELAY_MS = 1_000;
    private static final List<Path> LOG_DIRS = List.of(Path.of("/b/a"), Path.of("/b/b"));

    private final SimFileSystem fs = new SimFileSystem(new Random(1), CrashMode.LOSE_ALL_UNSYNCED);
    private final MetadataLoader loader = new MetadataLoader("[node 2] ", Long.MAX_VALUE, task -> false);
    private final LogScript log = new LogScript().leaderChange(1, 1);
    private int committedBatches;

    BrokerDirectoryCheckTest() {
        LOG_DIRS.forEach(fs::mkdirs);
    }

    private PartitionReconciler reconciler() {
        return new PartitionReconciler(BROKER, LOG_DIRS, DELAY_MS, new SimPartitionStore(fs,
                MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC), "[node 2] ");
    }

    private ImageUpdate commit() {
        loader.handleCommit(log.batches().subList(committedBatches, log.batches().size()));
        committedBatches = log.batches().size();
        return loader.lastUpdate();
    }

    private void check(MetadataImage image, long nowMs) {
        BrokerDirectoryCheck.check(BROKER, image, fs, LOG_DIRS, BrokerDirectoryCheck.Offline.NONE, nowMs, DELAY_MS, 100);
    }

    @Test
    void theReconcilersDirectoriesMatchTheImageThroughADeleteAndRecreate() {
        PartitionReconciler reconciler = reconciler();
        log.batch(topic("t", id(1)), partition(id(1), 0, 2, 2, 3), partition(id(1), 1, 3, 3), partition(id(1), 2, 2, 2));
        ImageUpdate first = commit();
        assertTrue(reconciler.reconcile(first, 0).complete());
        check(first.image(), 0);
        log.batch(remove(id(1))).batch(topic("t", id(2)), partition(id(2), 0, 2, 2));
        ImageUpdate second = commit();
        assertTrue(reconciler.reconcile(second, 10).complete());
        assertDoesNotThrow(() -> check(second.image(), 10));
    }

    @Test
    void anOldDirectoryTakenForLiveIsCaught() throws IOException {
        log.batch(topic("t", id(1)), partition(id(1), 0, 2, 2));
        ImageUpdate image = commit();
        assertTrue(reconciler().reconcile(image, 0).complete());
        // What a LogManager that skipped the topic-id check would keep: a directory of another id.
        Path dir = LOG_DIRS.get(1).resolve("t-0");
        fs.mkdir(dir);
        fs.createFile(dir.resolve(PartitionMetadataFile.FILE_NAME), PartitionMetadataFile.format(id(9)));
        CheckFailure failure = assertThrows(CheckFailure.class, () -> check(image.image(), 0));
        assertTrue(failure.getMessage().contains("two log dirs"), failure.getMessage());
    }

    @Test
    void aDirectoryWithTheWrongIdIsCaught() throws IOException {
        log.batch(topic("t", id(1)), partition(id(1), 0, 2, 2));
        ImageUpdate image = commit();
        Path dir = LOG_DIRS.get(0).resolve("t-0");
        fs.mkdir(dir);
        fs.createFile(dir.resolve(PartitionMetadataFile.FILE_NAME), PartitionMetadataFile.format(id(9)));
        assertThrows(CheckFailure.class, () -> check(image.image(), 0));
    }

    @Test
    void aStrayPastItsDelayIsCaught() throws IOException {
        log.batch(topic("t", id(1)), partition(id(1), 0, 2, 2));
        ImageUpdate image = commit();
        assertTrue(reconciler().reconcile(image, 0).complete());
        fs.mkdir(LOG_DIRS.get(0).resolve("t-0.500-stray"));
        assertDoesNotThrow(() -> check(image.image(), 1_500));
        assertThrows(CheckFailure.class, () -> check(image.image(), 1_601));
    }
}

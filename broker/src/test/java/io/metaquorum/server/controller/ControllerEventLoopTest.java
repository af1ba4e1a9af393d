package io.metaquorum.server.controller;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.controller.AppendSink;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.CreateTopicPolicy;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The controller thread's view of "active", as the request endpoints read it from other threads. */
class ControllerEventLoopTest {
    private static final AppendSink NO_APPENDS = new AppendSink() {
        @Override
        public void append(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
        }

        @Override
        public void resign(int epoch) {
        }
    };

    @Test
    void activeOnceTheBecomeLeaderEventRanEvenWhileLaterRaftEventsAreStillRunning() throws InterruptedException {
        QuorumController controller = new QuorumController("[test] ", new ControllerConfig(new ControllerManagers.Settings(
                ReplicationDefaults.KAFKA, 9_000, Map.of()), CreateTopicPolicy.NONE, 500, 8192), new SplittableRandom(1),
                NO_APPENDS);
        AtomicReference<Throwable> fault = new AtomicReference<>();
        ControllerEventLoop loop = new ControllerEventLoop(1, controller, SystemTime.INSTANCE, (m, e) -> fault.set(e));
        CountDownLatch inBacklog = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // Queued together before the thread starts, as a commit backlog queues behind a leadership.
        loop.raftEvent((c, nowMs) -> c.handleCommitted(MetadataImage.EMPTY));
        loop.raftEvent((c, nowMs) -> c.handleBecomeLeader(1, -1, nowMs));
        loop.raftEvent((c, nowMs) -> {
            inBacklog.countDown();
            awaitQuietly(release);
        });
        assertFalse(loop.isActive());
        loop.start();
        try {
            assertTrue(inBacklog.await(60, TimeUnit.SECONDS), "the backlog event ran");
            assertTrue(loop.isActive(), "requests arriving now must not be refused as NOT_CONTROLLER by the active "
                    + "controller itself");
        } finally {
            release.countDown();
            loop.close();
        }
        assertTrue(fault.get() == null, () -> "controller fault: " + fault.get());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.metaquorum.broker.node;

import static io.metaquorum.broker.partition.TestImages.id;
import static io.metaquorum.broker.partition.TestImages.replicas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.partition.PartitionDirectories;
import io.metaquorum.broker.partition.TestImages;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrokerNodeTest {
    /** Partition directories that keep what they were handed and ask to run at a fixed time. */
    private static final class RecordingDirectories implements PartitionDirectories {
        final List<MetadataImage> handed = new ArrayList<>();
        final List<ImageUpdate> updates = new ArrayList<>();
        long deadlineMs = Long.MAX_VALUE;

        @Override
        public void onImage(ImageUpdate update) {
            handed.add(update.image());
            updates.add(update);
        }

        @Override
        public long drive(long nowMs) {
            return deadlineMs;
        }

        @Override
        public Optional<MetadataImage> reconciledImage() {
            return handed.isEmpty() ? Optional.empty() : Optional.of(handed.get(handed.size() - 1));
        }
    }

    private long nowMs;
    private final TestImages images = new TestImages();
    private final RecordingTransport transport = new RecordingTransport();
    private final RecordingDirectories directories = new RecordingDirectories();
    private final BrokerNode node = new BrokerNode("[node 4] ", new BrokerNode.Settings("cluster", 4,
            Uuid.newBuilder().setMostSignificantBits(4).build(), List.of(), "", new LifecycleTimings(500, 100, 1_000),
            List.of(1, 2, 3), 1_000), new MetadataLoader("[node 4] ", Long.MAX_VALUE, task -> false), transport,
            directories, () -> nowMs);

    private void register(long epoch) {
        node.drive(nowMs);
        assertInstanceOf(LifecycleCall.Register.class, transport.last().call());
        transport.last().callback().onRegistration(BrokerRegistrationResponse.newBuilder().setBrokerEpoch(epoch)
                .setControllerId(1).build());
    }

    private void answerHeartbeat(BrokerHeartbeatResponse response) {
        assertInstanceOf(LifecycleCall.Heartbeat.class, transport.last().call());
        transport.last().callback().onHeartbeat(response.toBuilder().setControllerId(1).build());
    }

    /** Images up to {@code offset}: the newest, with every change since the last call, as raft's publications merge. */
    private ImageUpdate imageAt(long offset) {
        while (images.image().lastCommittedOffset() < offset) {
            long n = images.image().lastCommittedOffset() + 2;
            images.create("t" + n, id(n), replicas(4));
        }
        return images.take();
    }

    @Test
    void imagesReachTheDirectoriesOnlyOnceReplayReachesTheRegistration() {
        node.onImage(imageAt(3));
        register(10);
        node.drive(nowMs);
        assertTrue(directories.handed.isEmpty(), "an image older than the registration is held back");
        ImageUpdate caughtUp = imageAt(10);
        node.onImage(caughtUp);
        node.drive(nowMs);
        assertEquals(List.of(caughtUp.image()), directories.handed);
        assertEquals(-1, directories.updates.get(0).baseOffset(), "with the changes of the image held back too");
        node.drive(nowMs);
        assertEquals(1, directories.handed.size(), "each image is handed over once");
        assertSame(caughtUp.image(), node.reconciledImage().orElseThrow());
    }

    @Test
    void anImageThatArrivedBeforeTheRegistrationAnswerIsReleasedByIt() {
        ImageUpdate image = imageAt(12);
        node.onImage(image);
        register(10);
        node.drive(nowMs);
        assertEquals(List.of(image.image()), directories.handed);
    }

    @Test
    void aNewRegistrationHoldsImagesBackUntilReplayReachesItAgain() {
        register(4);
        node.onImage(imageAt(5));
        node.drive(nowMs);
        assertEquals(1, directories.handed.size());
        answerHeartbeat(BrokerHeartbeatResponse.newBuilder().setErrorCode(ErrorCode.STALE_BROKER_EPOCH).build());
        assertEquals(BrokerState.REGISTERING, node.state());
        node.onImage(imageAt(9));
        node.drive(nowMs);
        assertEquals(1, directories.handed.size(), "unregistered: nothing goes through");
        transport.last().callback().onRegistration(BrokerRegistrationResponse.newBuilder().setBrokerEpoch(20)
                .build());
        node.onImage(imageAt(15));
        node.drive(nowMs);
        assertEquals(1, directories.handed.size(), "behind the new registration");
        node.onImage(imageAt(20));
        node.drive(nowMs);
        assertEquals(2, directories.handed.size());
        ImageUpdate second = directories.updates.get(1);
        assertEquals(directories.handed.get(0).lastCommittedOffset(), second.baseOffset(),
                "every change since the image let through before, also those of the images held back");
        assertEquals(List.of(id(7), id(9), id(11), id(13), id(15), id(17), id(19), id(21)),
                second.topics().byId().keySet().toJavaList());
    }

    @Test
    void anImagePublishedTwiceIsHandedOverOnce() {
        register(2);
        ImageUpdate image = imageAt(2);
        node.onImage(image);
        node.drive(nowMs);
        node.onImage(image);
        node.drive(nowMs);
        assertEquals(1, directories.handed.size());
    }

    @Test
    void driveReturnsTheEarliestOfTheCallDeadlineTheHeartbeatAndTheDirectories() {
        directories.deadlineMs = 50_000;
        assertEquals(1_000, node.drive(0), "the registration's deadline");
        transport.last().callback().onRegistration(BrokerRegistrationResponse.newBuilder().setBrokerEpoch(2)
                .build());
        node.onImage(imageAt(2));
        nowMs = 10;
        assertEquals(1_010, node.drive(nowMs), "caught up: heartbeat at once, under its deadline");
        answerHeartbeat(BrokerHeartbeatResponse.newBuilder().setIsFenced(false).build());
        assertEquals(BrokerState.RUNNING, node.state());
        assertEquals(510, node.drive(nowMs), "the next heartbeat");
        directories.deadlineMs = 300;
        assertEquals(300, node.drive(nowMs), "a stray falls due first");
    }

    @Test
    void aControlledShutdownIsReadyOnceTheControllerLetsTheBrokerGo() {
        register(2);
        node.onImage(imageAt(2));
        node.drive(nowMs);
        answerHeartbeat(BrokerHeartbeatResponse.newBuilder().setIsFenced(false).build());
        node.beginControlledShutdown(nowMs);
        assertEquals(BrokerState.PENDING_CONTROLLED_SHUTDOWN, node.state());
        assertFalse(node.readyToStop());
        node.drive(nowMs);
        assertTrue(((LifecycleCall.Heartbeat) transport.last().call()).request().getWantShutDown());
        answerHeartbeat(BrokerHeartbeatResponse.newBuilder().setShouldShutDown(true).build());
        assertTrue(node.readyToStop());
    }
}

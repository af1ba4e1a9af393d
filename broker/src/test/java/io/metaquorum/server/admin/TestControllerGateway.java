package io.metaquorum.server.admin;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.controller.AppendSink;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.CreateTopicPolicy;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.node.controller.ControllerGateway;
import io.metaquorum.node.controller.ControllerOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ControllerGateway} over a real {@link QuorumController} on one thread of its own,
 * with this class in raft's place: every append is accepted and committed right after the
 * operation that made it (its records replayed into the committed image as the loader would).
 * The tests set whether it is active, which controller it knows, and whether its queue is full.
 */
final class TestControllerGateway implements ControllerGateway, AppendSink, AutoCloseable {
    private static final long NOW_MS = 1_000;
    private static final int EPOCH = 1;

    private record Appended(int epoch, long lastOffset, List<MetadataRecord> records) {
    }

    private final int nodeId;
    private final QuorumController controller;
    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    /** Appends not yet committed; controller thread only. */
    private final List<Appended> appended = new ArrayList<>();
    private volatile MetadataImage committed = MetadataImage.EMPTY;
    private volatile boolean active;
    private volatile int knownControllerId = -1;
    private volatile boolean queueFull;
    /** The controller whose committed image this one shows, as a broker replays the leader's log; or null. */
    private volatile TestControllerGateway replaying;

    TestControllerGateway(int nodeId) {
        this.nodeId = nodeId;
        ControllerConfig config = new ControllerConfig(new ControllerManagers.Settings(ReplicationDefaults.KAFKA,
                9_000, Map.of()), CreateTopicPolicy.NONE, 500, 8192);
        this.controller = new QuorumController("[node " + nodeId + "] ", config, new SplittableRandom(nodeId), this);
    }

    /** Makes this node's controller the leader of epoch 1 and waits until it is. */
    TestControllerGateway becomeActive() {
        runAndWait(() -> {
            long offset = committed.committedEndOffset();
            MetadataDelta delta = new MetadataDelta(committed);
            delta.advanceTo(offset, EPOCH);
            committed = delta.apply();
            controller.handleCommitted(committed);
            controller.handleBecomeLeader(EPOCH, offset, NOW_MS);
            commitAll();
        });
        active = true;
        knownControllerId = nodeId;
        return this;
    }

    /** Says it is active while its controller is not: a leadership lost between routing and running. */
    void claimActiveWithoutLeading() {
        active = true;
    }

    void knowController(int controllerId) {
        knownControllerId = controllerId;
    }

    /** Shows {@code leader}'s committed image from now on, as a broker that has replayed its log. */
    void replay(TestControllerGateway leader) {
        replaying = leader;
    }

    void fillQueue(boolean full) {
        queueFull = full;
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public boolean submit(ControllerOperation operation) {
        if (queueFull) {
            return false;
        }
        thread.execute(() -> {
            operation.run(controller, NOW_MS);
            commitAll();
        });
        return true;
    }

    @Override
    public MetadataImage committedImage() {
        TestControllerGateway leader = replaying;
        return leader == null ? committed : leader.committedImage();
    }

    @Override
    public int knownControllerId() {
        return knownControllerId;
    }

    @Override
    public void append(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
        appended.add(new Appended(epoch, expectedLastOffset, records));
    }

    /** Raft here never changes its voters, so it hands the controller no control records. */
    @Override
    public void appendControl(int epoch, long expectedLastOffset, List<ByteString> records) {
        throw new AssertionError("no voter change happens behind this gateway");
    }

    @Override
    public void resign(int epoch) {
        throw new AssertionError("the controller resigned epoch " + epoch);
    }

    private void commitAll() {
        if (appended.isEmpty()) {
            return;
        }
        MetadataDelta delta = new MetadataDelta(committed);
        List<Appended> batch = new ArrayList<>(appended);
        appended.clear();
        for (Appended a : batch) {
            controller.handleAppendAccepted(a.epoch(), a.lastOffset());
            long offset = a.lastOffset() - a.records().size() + 1;
            for (MetadataRecord record : a.records()) {
                delta.replay(record, offset++, a.epoch());
            }
        }
        committed = delta.apply();
        controller.handleCommitted(committed);
    }

    private void runAndWait(Runnable task) {
        try {
            thread.submit(task).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdownNow();
        thread.awaitTermination(5, TimeUnit.SECONDS);
    }
}

package io.metaquorum.broker.node;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;
import java.util.function.Consumer;

/**
 * Raft's state machine on a broker node: the node's own state machine first (the loader
 * alone, or the controller bridge in combined mode), then the loader's new image published to
 * the broker, with what changed since the image before it ({@link MetadataLoader#lastUpdate}).
 * Publishing must not block raft: production's broker hands the image to its own thread, the
 * simulator's takes it at once (it runs on the same simulated thread). An update published
 * twice (a commit of nothing) is no newer than itself, and those that take it ignore it.
 */
public final class ImagePublishingListener implements RaftListener {
    private final RaftListener inner;
    private final MetadataLoader loader;
    private final Consumer<ImageUpdate> publish;

    public ImagePublishingListener(RaftListener inner, MetadataLoader loader, Consumer<ImageUpdate> publish) {
        this.inner = inner;
        this.loader = loader;
        this.publish = publish;
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        inner.handleCommit(batches);
        publish.accept(loader.lastUpdate());
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        inner.handleLoadSnapshot(snapshotId, snapshot);
        publish.accept(loader.lastUpdate());
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        inner.handleLeaderChange(leader);
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        inner.handleBecomeLeader(epoch, epochStartOffset);
    }

    @Override
    public void handleResign(int epoch) {
        inner.handleResign(epoch);
    }
}

package io.metaquorum.raft.core.handler;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchSnapshotPartitionResponse;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.role.Follower;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads the leader's snapshot in chunks (KIP-630 FetchSnapshot) when the fetch offset
 * is below the leader's log start, then installs it atomically; the commit tracker hands
 * it to the state machine on the next poll. Bounded by {@code snapshotBytesMax}.
 */
public final class SnapshotDownloader {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotDownloader.class);

    private final CoreContext ctx;

    SnapshotDownloader(CoreContext ctx) {
        this.ctx = ctx;
    }

    long sendChunkRequest(Follower f, long nowMs) {
        OffsetAndEpoch id = f.snapshotInProgress();
        var partition = FollowerFetcher.snapshotRequest().setCurrentLeaderEpoch(f.epoch())
                .setSnapshotId(FetchRpcs.snapshotId(id)).setPosition(f.snapshotDownload().sizeBytes()).build();
        return ctx.outbox().sendRequest(f.leaderId(), FetchRpcs.fetchSnapshotRequest(ctx.clusterId(), ctx.localId(),
                ctx.config().limits().fetchSnapshotBytesMax(), partition), f.epoch(), ctx.requestDeadline(nowMs));
    }

    public void handleFetchSnapshotResponse(long correlationId, FetchSnapshotResponse response, long nowMs) {
        if (!(ctx.role() instanceof Follower f) || f.inflightCorrelationId() != correlationId) {
            return;
        }
        f.clearInflight();
        Optional<FetchSnapshotPartitionResponse> partition = FetchRpcs.partition(response);
        if (response.getErrorCode() != ErrorCode.NONE || partition.isEmpty()) {
            f.delayNextFetch(nowMs + ctx.config().timeouts().retryBackoffMs());
            return;
        }
        FetchSnapshotPartitionResponse p = partition.get();
        if (ctx.observeLeader(p.getCurrentLeader().getLeaderEpoch(), p.getCurrentLeader().getLeaderId(), nowMs)) {
            return;
        }
        if (p.getErrorCode() != ErrorCode.NONE || f.snapshotInProgress() == null) {
            // SNAPSHOT_NOT_FOUND (the leader took a newer one) or out of range: start over from Fetch.
            f.finishSnapshotDownload();
            f.delayNextFetch(nowMs + ctx.config().timeouts().retryBackoffMs());
            return;
        }
        f.onLeaderHeard(nowMs + ctx.config().timeouts().fetchTimeoutMs());
        acceptChunk(f, p);
    }

    /** Appends the chunk to the download (a temporary file); the last one completes and installs it. */
    private void acceptChunk(Follower f, FetchSnapshotPartitionResponse p) {
        OffsetAndEpoch id = f.snapshotInProgress();
        SnapshotWriter download = f.snapshotDownload();
        ByteString chunk = p.getUnalignedRecords();
        boolean matches = FetchRpcs.offsetAndEpoch(p.getSnapshotId()).equals(id)
                && p.getPosition() == download.sizeBytes();
        if (!matches || p.getSize() > ctx.config().limits().snapshotBytesMax()
                || p.getPosition() + chunk.size() > p.getSize() || (chunk.isEmpty() && p.getPosition() < p.getSize())) {
            LOG.warn("[node {}] snapshot chunk for {} does not fit (position {}, size {}); restarting download",
                    ctx.localId(), id, p.getPosition(), p.getSize());
            f.finishSnapshotDownload();
            return;
        }
        download.append(chunk.toByteArray());
        if (download.sizeBytes() == p.getSize()) {
            download.freeze();
            LOG.info("[node {}] installing snapshot {} ({} bytes) from leader {}", ctx.localId(), id,
                    download.sizeBytes(), f.leaderId());
            ctx.log().installSnapshot(download);
            f.finishSnapshotDownload();
            ctx.commits().onSnapshotInstalled(id);
        }
    }
}

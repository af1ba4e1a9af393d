package io.metaquorum.cli;

import io.metaquorum.cli.grpc.CommittedLogClient;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.tool.ImageReplay;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchPartitionResponse;
import io.metaquorum.protocol.FetchSnapshotPartitionResponse;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.SnapshotId;
import io.metaquorum.raft.snapshot.SnapshotCodec;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.security.grpc.ClientSecurity;
import io.metaquorum.net.HostPort;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The live image for {@code mq-metadata shell --bootstrap-controller}: finds the quorum's
 * leader (DescribeQuorum, as {@code quorum} does), then fetches its log from offset 0 as an
 * anonymous observer, the snapshot first when the log starts after one, and replays what is
 * committed (below the high watermark read at the start, or up to {@code --at-offset}) in
 * process through {@link MetadataDelta}, the path every node replays on. Nothing is written
 * anywhere; the leader keeps no trace of the fetches.
 */
final class LiveImages {
    static final long REQUEST_TIMEOUT_MS = 30_000;
    /** Fetches at most, so that a leader that never moves the offset on cannot keep the tool forever. */
    static final int FETCHES_MAX = 1_000_000;

    private LiveImages() {
    }

    /** The committed image at {@code atOffset} (null: at the high watermark). */
    static MetadataImage fetch(List<HostPort> controllers, Long atOffset, ClientSecurity security) {
        QuorumLeaderLookup.LeaderAnswer leader = QuorumLeaderLookup.findLeader(controllers,
                QuorumCommand.REQUEST_TIMEOUT_MS, security);
        DescribeQuorumPartitionResponse quorum = leader.response().getTopics(0).getPartitions(0);
        String clusterId = leader.response().getClusterId();
        int epoch = quorum.getLeaderEpoch();
        long highWatermark = quorum.getHighWatermark();
        if (atOffset != null && (atOffset < -1 || atOffset >= highWatermark)) {
            throw new CommandFailure("--at-offset " + atOffset + " is not committed: the high watermark is "
                    + highWatermark + " (images exist up to offset " + (highWatermark - 1) + ")");
        }
        long lastOffset = atOffset != null ? atOffset : highWatermark - 1;
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        try (CommittedLogClient client = new CommittedLogClient(leader.address().toAddress(), REQUEST_TIMEOUT_MS,
                security.credentials())) {
            long offset = 0;
            int lastEpoch = 0;
            for (int fetches = 0; offset <= lastOffset && fetches < FETCHES_MAX; fetches++) {
                FetchPartitionResponse answer = client.fetch(clusterId, epoch, offset, lastEpoch);
                requireNone("Fetch", answer.getErrorCode(), leader.address());
                if (answer.hasSnapshotId() && answer.getSnapshotId().getEndOffset() > offset) {
                    SnapshotId id = answer.getSnapshotId();
                    if (lastOffset < id.getEndOffset() - 1) {
                        throw new CommandFailure("--at-offset " + lastOffset + " is inside the leader's snapshot, which "
                                + "ends at " + id.getEndOffset() + ": the leader has no earlier image");
                    }
                    delta = new MetadataDelta(snapshotImage(client, clusterId, epoch, id, leader.address()));
                    offset = id.getEndOffset();
                    lastEpoch = id.getEpoch();
                    continue;
                }
                if (answer.hasDivergingEpoch() || answer.getBatchesCount() == 0) {
                    throw new CommandFailure("the leader at " + leader.address() + " served no records at offset "
                            + offset + " below its high watermark " + highWatermark);
                }
                for (RecordBatch batch : answer.getBatchesList()) {
                    if (offset > lastOffset) {
                        break;
                    }
                    ImageReplay.replayBatch(delta, RecordBatches.requireValid(batch), lastOffset);
                    offset = RecordBatches.endOffset(batch);
                    lastEpoch = batch.getEpoch();
                }
            }
        } catch (RuntimeException e) {
            if (e instanceof CommandFailure) {
                throw e;
            }
            throw new CommandFailure("fetching the metadata log from " + leader.address() + " failed: "
                    + CommandLines.describe(e), e);
        }
        return delta.apply();
    }

    private static MetadataImage snapshotImage(CommittedLogClient client, String clusterId, int epoch, SnapshotId id,
                                               HostPort leader) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        long size = Long.MAX_VALUE;
        while (content.size() < size) {
            FetchSnapshotPartitionResponse chunk = client.fetchSnapshot(clusterId, epoch, id, content.size());
            requireNone("FetchSnapshot", chunk.getErrorCode(), leader);
            size = chunk.getSize();
            if (chunk.getUnalignedRecords().isEmpty() && content.size() < size) {
                throw new CommandFailure("the leader at " + leader + " served no snapshot bytes at position "
                        + content.size() + " of " + size);
            }
            content.writeBytes(chunk.getUnalignedRecords().toByteArray());
        }
        OffsetAndEpoch snapshotId = new OffsetAndEpoch(id.getEndOffset(), id.getEpoch());
        return ImageReplay.snapshotImage(snapshotId, SnapshotCodec.decode(content.toByteArray()));
    }

    private static void requireNone(String rpc, ErrorCode code, HostPort leader) {
        if (code != ErrorCode.NONE) {
            throw new CommandFailure(rpc + " to the leader at " + leader + " answered " + code
                    + " (the leadership may have moved; run the command again)");
        }
    }
}

package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.TopicsImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.raft.TopicIds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the log dirs into a {@link LocalPartitions} and sorts every partition directory found
 * against the image: it is live when its {@code partition.metadata} names a topic id that the
 * image has, under the same topic name, with this broker among the partition's replicas;
 * otherwise it is a stray and is renamed aside at once (KAFKA-14616: the broker missed a
 * delete, or a delete and a re-create with the same name, while it was away). A directory
 * without a valid {@code partition.metadata} is a stray too: what it held is not guessed.
 * A live directory whose metadata was written and not yet published (only a
 * {@code partition.metadata.tmp}, whole: the broker stopped, or a pass failed, before its
 * {@link DirectoryBatch#publish}) is queued to be published at once. Existing {@code -stray}
 * directories are taken back with the staging time in their names (their topic id from a
 * published {@code partition.metadata} only). Anything else is left alone and reported once.
 */
final class LogDirScan {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionReconciler.class);

    private final int brokerId;
    private final List<Path> logDirs;
    private final long delayMs;
    private final PartitionStore store;
    private final String logPrefix;
    /** Entries left alone that were already reported (kept across rescans so each is logged once). */
    private final Set<DirLocation> reported;

    LogDirScan(int brokerId, List<Path> logDirs, long delayMs, PartitionStore store, String logPrefix,
               Set<DirLocation> reported) {
        this.brokerId = brokerId;
        this.logDirs = logDirs;
        this.delayMs = delayMs;
        this.store = store;
        this.logPrefix = logPrefix;
        this.reported = reported;
    }

    /**
     * A partition directory found by the scan; its fate is decided once its whole log dir is
     * read. {@code unpublished} holds the bytes of a whole {@code partition.metadata.tmp} when
     * there is no {@code partition.metadata}, else null.
     */
    private record Found(DirLocation location, PartitionDirName.Partition name, UuidKey topicId, String unreadable,
                         byte[] unpublished) {
        Found(DirLocation location, PartitionDirName.Partition name, String unreadable) {
            this(location, name, null, unreadable, null);
        }
    }

    /**
     * The picture of the log dirs, or null when a log dir could not be listed or a stray not
     * renamed. The {@code offline} log dirs are not read: the picture has nothing in them.
     */
    LocalPartitions scan(TopicsImage topics, long nowMs, ReconcilePass pass, Set<Integer> offline) {
        LocalPartitions local = new LocalPartitions(logDirs.size());
        for (int dir = 0; dir < logDirs.size(); dir++) {
            if (offline.contains(dir)) {
                continue;
            }
            List<PartitionStore.Entry> entries;
            try {
                entries = new ArrayList<>(store.list(logDirs.get(dir)));
            } catch (IOException e) {
                pass.diskError("listing", logDirs.get(dir), e);
                return null;
            }
            entries.sort(Comparator.comparing(PartitionStore.Entry::name));
            List<Found> found = new ArrayList<>();
            for (PartitionStore.Entry entry : entries) {
                DirLocation location = new DirLocation(dir, entry.name());
                PartitionDirName name = entry.directory() ? PartitionDirName.parse(entry.name())
                        : new PartitionDirName.Unrecognized();
                if (name instanceof PartitionDirName.Partition partition) {
                    found.add(read(location, partition, true));
                } else if (name instanceof PartitionDirName.Stray stray) {
                    Found metadata = read(location, new PartitionDirName.Partition(stray.topic(), stray.partition()),
                            false);
                    local.addStray(new StrayDir(location, stray.partition(), metadata.topicId(), stray.stagedAtMs()));
                } else {
                    local.addForeign(location);
                    report(location, entry.directory(), pass);
                }
            }
            List<UnpublishedDirs.Dir> unpublished = new ArrayList<>();
            for (Found each : found) {
                if (!sort(each, topics, local, nowMs, pass)) {
                    return null;
                }
                if (each.unpublished() != null
                        && each.location().equals(local.live(each.topicId(), each.name().partition()))) {
                    unpublished.add(new UnpublishedDirs.Dir(each.topicId(), each.name().partition(),
                            new PartitionStore.NewPartition(each.location().name(), each.unpublished())));
                }
            }
            if (!unpublished.isEmpty()) {
                LOG.info("{}{} partition directories in {} were written and not yet published (the broker stopped, or a"
                        + " pass failed, before their publish); publishing them now", logPrefix, unpublished.size(), logDirs.get(dir));
                local.unpublished.add(new UnpublishedDirs.Batch(dir, nowMs, unpublished));
            }
        }
        return local;
    }

    /**
     * Reads the directory's topic id from its {@code partition.metadata}, or when it has none and
     * {@code orUnpublished}, from a whole {@code partition.metadata.tmp}.
     */
    private Found read(DirLocation location, PartitionDirName.Partition name, boolean orUnpublished) {
        Path logDir = logDirs.get(location.logDir());
        byte[] content;
        boolean published = true;
        try {
            content = store.readPartitionMetadata(logDir, location.name(), PartitionMetadataFile.FILE_BYTES_MAX + 1);
            if (content == null && orUnpublished) {
                content = store.readUnpublishedMetadata(logDir, location.name(),
                        PartitionMetadataFile.FILE_BYTES_MAX + 1);
                published = false;
            }
        } catch (IOException e) {
            return new Found(location, name, PartitionMetadataFile.FILE_NAME + " cannot be read ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
        if (content == null) {
            return new Found(location, name, "it has no " + PartitionMetadataFile.FILE_NAME);
        }
        String file = published ? PartitionMetadataFile.FILE_NAME : PartitionMetadataFile.FILE_NAME + ".tmp";
        try {
            return new Found(location, name, PartitionMetadataFile.parse(content), null, published ? null : content);
        } catch (PartitionMetadataFile.MalformedException e) {
            return new Found(location, name, file + " is malformed (" + e.getMessage() + ")");
        }
    }

    /** Makes {@code found} live or stages it as a stray; false when the rename failed. */
    private boolean sort(Found found, TopicsImage topics, LocalPartitions local, long nowMs, ReconcilePass pass) {
        String why = found.unreadable() != null ? found.unreadable() : whyNotLive(found, topics, local);
        if (why == null) {
            local.addLive(found.topicId(), found.name().partition(), found.location());
            return true;
        }
        return stage(found, why, local, nowMs, pass);
    }

    /** Why a directory with a valid {@code partition.metadata} is not live, or null when it is. */
    private String whyNotLive(Found found, TopicsImage topics, LocalPartitions local) {
        String id = TopicIds.toBase64(found.topicId().toUuid());
        String topicName = found.name().topic();
        int partition = found.name().partition();
        TopicImage topic = topics.topic(found.topicId());
        if (topic == null) {
            TopicImage sameName = topics.topic(topicName);
            return "topic id " + id + " is not in the metadata image" + (sameName == null ? ""
                    : " (topic '" + topicName + "' now has id " + TopicIds.toBase64(sameName.id().toUuid()) + ")");
        }
        if (!topic.name().equals(topicName)) {
            return "topic id " + id + " belongs to topic '" + topic.name() + "'";
        }
        if (partition >= topic.partitionCount()) {
            return "topic '" + topicName + "' has " + topic.partitionCount() + " partitions";
        }
        if (!topic.partition(partition).hasReplica(brokerId)) {
            return "broker " + brokerId + " is not a replica of it";
        }
        DirLocation first = local.live(found.topicId(), partition);
        if (first != null) {
            return "the partition already has a directory in " + logDirs.get(first.logDir());
        }
        return null;
    }

    private boolean stage(Found found, String why, LocalPartitions local, long nowMs, ReconcilePass pass) {
        int dir = found.location().logDir();
        String topic = found.name().topic();
        int partition = found.name().partition();
        DirLocation target = null;
        for (int sequence = 0; target == null || local.isTaken(target); sequence++) {
            target = new DirLocation(dir, PartitionDirName.strayDir(topic, partition, nowMs, sequence));
        }
        try {
            store.rename(logDirs.get(dir), found.location().name(), target.name());
        } catch (IOException e) {
            pass.diskError("renaming stray", logDirs.get(dir).resolve(found.location().name()), e);
            return false;
        }
        pass.changed(dir);
        local.addStray(new StrayDir(target, partition, found.topicId(), nowMs));
        pass.strayed++;
        LOG.warn("{}stray partition directory {}: {}; renamed to {}, to be deleted after {} ms", logPrefix,
                logDirs.get(dir).resolve(found.location().name()), why, target.name(), delayMs);
        return true;
    }

    private void report(DirLocation location, boolean directory, ReconcilePass pass) {
        if (reported.add(location)) {
            Path path = logDirs.get(location.logDir()).resolve(location.name());
            String description = path + (directory ? " is not a partition directory" : " is not a directory");
            pass.leftAlone(description);
            LOG.info("{}leaving {}: {}", logPrefix, path, directory ? "not a partition directory" : "not a directory");
        }
    }
}

package io.metaquorum.broker.partition;

import io.metaquorum.common.fault.DiskFull;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicChange;
import io.metaquorum.metadata.image.TopicChanges;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.TopicsImage;
import io.metaquorum.metadata.image.UuidKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the partition directories under {@code log.dirs} match what a {@link MetadataImage}
 * assigns to this broker (docs/architecture.md §7, KIP-516, KAFKA-14616): the deterministic core of the
 * LogManager. No I/O of its own (everything goes through a {@link PartitionStore}), no clock
 * (time is the {@code nowMs} argument), no thread (the caller owns one and calls
 * {@link #reconcile} with the newest image and what changed in it, and again at the returned
 * deadline).
 *
 * <p>One pass:
 * <ol>
 *   <li>On the first pass, and on the first after a disk error, the log dirs are scanned
 *       ({@link LogDirScan}): directories that the image does not assign to this broker with
 *       the same topic id are renamed aside as strays at once; strays from earlier runs are
 *       taken back with the time in their names.</li>
 *   <li>The topics to look at: after a complete pass, only those the {@link ImageUpdate} lists
 *       as changed since then, and of a topic that existed on both sides only the listed
 *       partitions (Kafka's {@code TopicsDelta.localChanges}), so a pass costs what changed,
 *       not what the image holds. The first pass, the first after a disk error and the first
 *       after a snapshot load (whose changes are unknown) look at every topic of the image and
 *       every topic with a directory here: one walk of the whole image. Then: a directory
 *       the image no longer assigns (topic deleted, partition moved away) is deleted at once;
 *       then a missing directory is created in the log dir with the fewest partitions, or taken
 *       back from a stray that holds exactly that topic id and partition.</li>
 *   <li>Batches of new directories written {@code publishDelayMs} ago are published
 *       ({@link DirectoryBatch}: their metadata synced and renamed, once the kernel wrote it).</li>
 *   <li>Strays whose {@code delete.stale.topic.delay.ms} has passed are deleted.</li>
 * </ol>
 * Deletions precede creations so that a topic deleted and re-created under the same name
 * between two images gets a fresh directory where the old one was.
 *
 * <p>Fault model: a failed operation ends trust in the picture of the disk; the next pass
 * rescans. The picture is otherwise kept from this reconciler's own operations: nothing else
 * is expected to write under {@code log.dirs} while it runs. A full disk ({@link DiskFull}) is
 * not retried: its log dir goes offline until the broker restarts, as in Kafka. Nothing more is
 * done in it (no creation, deletion, stray handling or scan); the partitions it held, or was
 * given in the failed batch, are left to it and not created elsewhere; new partitions go to the
 * log dirs still online, and when none is left they are not created. The broker goes on
 * replaying and serving metadata.
 *
 * <p>Invariant: after a complete pass over image I, the live directories are exactly the
 * partitions I assigns to this broker, each named {@code <topic>-<partition>} and holding its
 * topic id; everything else under {@code log.dirs} is a stray not yet due or was there before
 * and is not a partition directory.
 */
public final class PartitionReconciler {
    /**
     * New directories a pass writes at most, in one {@link DirectoryBatch} per log dir (one
     * durability barrier each). A pass that reaches it stops there and reports
     * {@link ReconcileResult#creationsLeft()}; the next pass, due at once with the newest image,
     * goes on where it stopped. So a bulk create of 20,000 partitions is 20 passes of about a
     * third of a second each on a disk that makes 3,000 directories a second, and an image that
     * deletes something is acted on between them.
     */
    public static final int CREATES_PER_PASS_MAX = 1024;
    /**
     * How long after a batch of directories is written its metadata is published
     * ({@link DirectoryBatch}): Linux writes back dirty data older than 30 s at its next wake-up,
     * 5 s apart (its defaults), so the publish's fsyncs find the bytes written; else they write them.
     */
    public static final long PUBLISH_DELAY_MS = 35_000;
    /** A pass stops after this many failed operations: by then a log dir is gone or read-only. */
    public static final int DISK_ERRORS_PER_PASS_MAX = 32;
    private static final Logger LOG = LoggerFactory.getLogger(PartitionReconciler.class);

    private final int brokerId;
    private final List<Path> logDirs;
    private final long deleteStaleTopicDelayMs;
    private final long publishDelayMs;
    private final PartitionStore store;
    private final String logPrefix;
    private final LogDirScan scan;
    /** The picture of the log dirs; null until the first scan and after a disk error. */
    private LocalPartitions local;
    /**
     * The offset of the image of the last complete pass. Invariant: while {@code local} is not
     * null, the last pass was complete and its image was at this offset.
     */
    private long settledOffset = -1;
    /**
     * The topics a pass cut short by {@link #CREATES_PER_PASS_MAX} had not finished (the one it
     * stopped in and those after it), each with the change it was being looked at for; empty
     * otherwise. Invariant: not empty only while {@code local} is not null; the next pass looks
     * at them on top of what its update lists.
     */
    private final TreeMap<UuidKey, TopicChange> unfinished = new TreeMap<>();
    /** The indexes of the log dirs taken offline by a full disk; never emptied (a restart brings them back). */
    private final TreeSet<Integer> offline = new TreeSet<>();
    /**
     * The partitions whose directories are in an offline log dir (or were being created there):
     * not created elsewhere, so a restart finds each in one place. Kept across rescans, which
     * do not read offline log dirs.
     */
    private final TreeSet<PartitionKey> offlinePartitions = new TreeSet<>();
    /** Directories planned but not written yet, by log dir; empty between passes. */
    private final List<List<UnpublishedDirs.Dir>> pendingCreations = new ArrayList<>();
    private int pendingCreationCount;

    /** A reconciler that publishes each batch of new directories in the pass that writes it (no publish delay). */
    public PartitionReconciler(int brokerId, List<Path> logDirs, long deleteStaleTopicDelayMs, PartitionStore store,
                               String logPrefix) {
        this(brokerId, logDirs, deleteStaleTopicDelayMs, 0, store, logPrefix);
    }

    /**
     * @param brokerId                this broker's node id
     * @param logDirs                 {@code log.dirs}, in order (placement ties go to the first)
     * @param deleteStaleTopicDelayMs how long a stray waits before it is deleted
     * @param publishDelayMs          how long after a batch of directories is written its metadata
     *                                is synced and published ({@link #PUBLISH_DELAY_MS} on a node)
     * @param store                   the file system under {@code logDirs}
     * @param logPrefix               node context for log lines, e.g. {@code "[node 4] "}
     */
    public PartitionReconciler(int brokerId, List<Path> logDirs, long deleteStaleTopicDelayMs, long publishDelayMs,
                               PartitionStore store, String logPrefix) {
        Invariants.check(!logDirs.isEmpty(), "a broker needs at least one log dir");
        Invariants.check(deleteStaleTopicDelayMs >= 0, "delete.stale.topic.delay.ms must be >= 0, got %d",
                deleteStaleTopicDelayMs);
        Invariants.check(publishDelayMs >= 0, "the publish delay must be >= 0, got %d", publishDelayMs);
        Invariants.check(new TreeSet<>(logDirs).size() == logDirs.size(), "log.dirs lists a directory twice: %s",
                logDirs);
        this.brokerId = brokerId;
        this.logDirs = List.copyOf(logDirs);
        this.deleteStaleTopicDelayMs = deleteStaleTopicDelayMs;
        this.publishDelayMs = publishDelayMs;
        this.store = store;
        this.logPrefix = logPrefix;
        for (int i = 0; i < logDirs.size(); i++) {
            pendingCreations.add(new ArrayList<>());
        }
        this.scan = new LogDirScan(brokerId, this.logDirs, deleteStaleTopicDelayMs, store, logPrefix,
                new TreeSet<>());
    }

    /**
     * Brings the log dirs in line with {@code update}'s image at wall-clock time {@code nowMs}.
     * Call it with the newest update whenever one arrives, and at
     * {@link ReconcileResult#nextDeadlineMs} (with the same update) so strays are deleted on
     * time; after an incomplete result call it again later. Reconciling the same update twice
     * does nothing the second time (unless a stray fell due).
     *
     * <p>After a complete pass, {@code update} must hold the changes since an image no newer
     * than that pass's, and an image no older (what {@link ReconcileSchedule} hands out):
     * then only the listed topics and partitions are looked at. The first pass, the first after
     * a disk error and a pass with {@link TopicChanges#UNKNOWN} changes (a snapshot load) walk
     * the whole image.
     */
    public ReconcileResult reconcile(ImageUpdate update, long nowMs) {
        ReconcilePass pass = new ReconcilePass(logPrefix);
        MetadataImage image = update.image();
        TopicsImage topics = image.topics();
        boolean wholeImage = local == null || update.topics().isUnknown();
        if (local == null) {
            unfinished.clear();
            local = scan.scan(topics, nowMs, pass, offline);
        }
        if (local != null) {
            TreeMap<UuidKey, TopicChange> scope = wholeImage ? PassScope.everyTopic(topics, local)
                    : PassScope.changedTopics(update, settledOffset, unfinished);
            for (Map.Entry<UuidKey, TopicChange> topic : scope.entrySet()) {
                removeUnassigned(topic.getKey(), topics.topic(topic.getKey()), topic.getValue(), pass);
            }
            createAssigned(scope, topics, nowMs, pass);
            publishDue(nowMs, pass);
            deleteDueStrays(nowMs, pass);
        }
        sync(pass);
        if (pass.failed()) {
            local = null;
            unfinished.clear();
        } else if (local != null) {
            settledOffset = image.lastCommittedOffset();
        }
        ReconcileResult result = pass.result(nextDeadlineMs());
        pass.logSummary(image.lastCommittedOffset(), result, local == null ? "?" : String.valueOf(local.liveCount()),
                local == null ? "?" : String.valueOf(local.strayCount()));
        return result;
    }

    /**
     * Creates the missing directories of the topics in {@code scope}, in id order, until
     * {@link #CREATES_PER_PASS_MAX} are written; the topics not finished then are kept in
     * {@code unfinished} for the next pass.
     */
    private void createAssigned(TreeMap<UuidKey, TopicChange> scope, TopicsImage topics, long nowMs,
                                ReconcilePass pass) {
        unfinished.clear();
        for (Map.Entry<UuidKey, TopicChange> topic : scope.entrySet()) {
            createAssigned(topic.getKey(), topics.topic(topic.getKey()), topic.getValue(), pass);
            if (pendingCreationCount >= CREATES_PER_PASS_MAX && !pass.stopped()) {
                unfinished.putAll(scope.tailMap(topic.getKey(), true));
                pass.creationsLeft = true;
                break;
            }
        }
        flushCreations(nowMs, pass);
    }

    private boolean isAssigned(TopicImage topic, int partition) {
        return topic != null && partition < topic.partitionCount() && topic.partition(partition).hasReplica(brokerId);
    }

    /**
     * Deletes the live directories of topic {@code id} that {@code topic} (null: removed) no
     * longer assigns here: all of them for a whole change, else those of the listed partitions.
     */
    private void removeUnassigned(UuidKey id, TopicImage topic, TopicChange change, ReconcilePass pass) {
        Invariants.check(topic != null || change.whole(), "topic %s is gone but its change %s is not whole", id,
                change);
        if (change.whole()) {
            for (Map.Entry<Integer, DirLocation> live : local.liveOf(id).entrySet()) {
                removeIfUnassigned(id, topic, live.getKey(), live.getValue(), pass);
            }
            return;
        }
        for (int partition : change.partitions()) {
            DirLocation live = local.live(id, partition);
            if (live != null) {
                removeIfUnassigned(id, topic, partition, live, pass);
            }
        }
    }

    private void removeIfUnassigned(UuidKey id, TopicImage topic, int partition, DirLocation location,
                                    ReconcilePass pass) {
        if (pass.stopped() || isAssigned(topic, partition) || offline.contains(location.logDir())) {
            return;
        }
        Path logDir = logDirs.get(location.logDir());
        try {
            store.deleteRecursively(logDir, location.name());
        } catch (IOException e) {
            failed(location.logDir(), "deleting", logDir.resolve(location.name()), e, pass);
            return;
        }
        pass.changed(location.logDir());
        local.removeLive(id, partition);
        pass.removed++;
        LOG.debug("{}deleted partition directory {} ({})", logPrefix, logDir.resolve(location.name()),
                topic == null ? "topic deleted" : "no longer assigned to broker " + brokerId);
    }

    /**
     * Creates (or takes back from a stray) the missing directories {@code topic} assigns here:
     * of all its partitions for a whole change, else of the listed ones.
     */
    private void createAssigned(UuidKey id, TopicImage topic, TopicChange change, ReconcilePass pass) {
        if (topic == null) {
            return;
        }
        if (change.whole()) {
            for (int partition = 0; partition < topic.partitionCount(); partition++) {
                createIfMissing(id, topic, partition, pass);
            }
            return;
        }
        for (int partition : change.partitions()) {
            if (partition < topic.partitionCount()) {
                createIfMissing(id, topic, partition, pass);
            }
        }
    }

    private void createIfMissing(UuidKey id, TopicImage topic, int partition, ReconcilePass pass) {
        if (pass.stopped() || pendingCreationCount >= CREATES_PER_PASS_MAX
                || !topic.partition(partition).hasReplica(brokerId) || local.live(id, partition) != null
                || offlinePartitions.contains(new PartitionKey(id, partition))) {
            return;
        }
        String name = PartitionDirName.partitionDir(topic.name(), partition);
        StrayDir stray = local.strayOf(id, partition);
        if (stray != null && !local.isTaken(new DirLocation(stray.location().logDir(), name))
                && !offline.contains(stray.location().logDir())) {
            restore(stray, id, name, pass);
        } else {
            create(id, partition, name, pass);
        }
    }

    /** Plans a new directory in the online log dir with the fewest partitions; written with its batch. */
    private void create(UuidKey id, int partition, String name, ReconcilePass pass) {
        int dir = local.placement(name, offline);
        if (dir < 0 && offline.size() == logDirs.size()) {
            // Nowhere to go until a restart: it stays with the offline log dirs like the ones they hold.
            offlinePartitions.add(new PartitionKey(id, partition));
            pass.notCreatedOffline++;
            return;
        }
        if (dir < 0) {
            pass.diskError("cannot create partition directory " + name + ": an entry that is not a partition "
                    + "directory has that name in every online log dir " + logDirs);
            return;
        }
        local.addLive(id, partition, new DirLocation(dir, name));
        pendingCreations.get(dir).add(new UnpublishedDirs.Dir(id, partition,
                new PartitionStore.NewPartition(name, PartitionMetadataFile.format(id))));
        pendingCreationCount++;
    }

    /**
     * Writes the planned directories, one {@link DirectoryBatch} per log dir, and queues each
     * batch to be published {@code publishDelayMs} later (its own barrier then, its log dir's
     * fsync included, so a batch does not mark the log dir for the pass's final sync). The
     * picture already counts them as live: if a batch fails, the pass fails and the picture is
     * dropped, so the optimism never outlives the pass.
     */
    private void flushCreations(long nowMs, ReconcilePass pass) {
        for (int dir = 0; dir < logDirs.size(); dir++) {
            List<UnpublishedDirs.Dir> batch = pendingCreations.get(dir);
            if (batch.isEmpty()) {
                continue;
            }
            try {
                DirectoryBatch.write(store, logDirs.get(dir), UnpublishedDirs.written(batch));
                local.unpublished.add(new UnpublishedDirs.Batch(dir, nowMs + publishDelayMs, batch));
                pass.created += batch.size();
                LOG.debug("{}created {} partition directories in {}", logPrefix, batch.size(), logDirs.get(dir));
            } catch (IOException e) {
                if (!failed(dir, "creating " + batch.size() + " partition directories in", logDirs.get(dir), e, pass)) {
                    pass.changed(dir);
                }
            }
            batch.clear();
        }
        pendingCreationCount = 0;
    }

    /**
     * Publishes the batches due at {@code nowMs} ({@link DirectoryBatch#publish}), each without
     * the directories deleted or staged since it was written; a log dir gone offline keeps its
     * batches as they are.
     */
    private void publishDue(long nowMs, ReconcilePass pass) {
        for (UnpublishedDirs.Batch batch : local.unpublished.takeDue(nowMs)) {
            if (pass.stopped() || offline.contains(batch.logDir())) {
                continue;
            }
            List<PartitionStore.NewPartition> live = local.stillLive(batch);
            if (live.isEmpty()) {
                continue;
            }
            Path logDir = logDirs.get(batch.logDir());
            try {
                DirectoryBatch.publish(store, logDir, live);
                pass.published += live.size();
                LOG.debug("{}published {} partition directories in {}", logPrefix, live.size(), logDir);
            } catch (IOException e) {
                failed(batch.logDir(), "publishing " + live.size() + " partition directories in", logDir, e, pass);
            }
        }
    }

    private void restore(StrayDir stray, UuidKey id, String name, ReconcilePass pass) {
        Path logDir = logDirs.get(stray.location().logDir());
        try {
            store.rename(logDir, stray.location().name(), name);
        } catch (IOException e) {
            failed(stray.location().logDir(), "restoring stray", logDir.resolve(stray.location().name()), e, pass);
            return;
        }
        pass.changed(stray.location().logDir());
        local.removeStray(stray);
        local.addLive(id, stray.partition(), new DirLocation(stray.location().logDir(), name));
        pass.restored++;
        LOG.info("{}stray {} holds a partition assigned to broker {} again; renamed back to {}", logPrefix,
                logDir.resolve(stray.location().name()), brokerId, name);
    }

    private void deleteDueStrays(long nowMs, ReconcilePass pass) {
        for (StrayDir stray : local.dueStrays(nowMs, deleteStaleTopicDelayMs)) {
            if (pass.stopped()) {
                return;
            }
            if (offline.contains(stray.location().logDir())) {
                continue;
            }
            Path logDir = logDirs.get(stray.location().logDir());
            try {
                store.deleteRecursively(logDir, stray.location().name());
            } catch (IOException e) {
                failed(stray.location().logDir(), "deleting stray", logDir.resolve(stray.location().name()), e, pass);
                continue;
            }
            pass.changed(stray.location().logDir());
            local.removeStray(stray);
            pass.straysDeleted++;
            LOG.info("{}deleted stray {} (staged at {}, delay {} ms)", logPrefix,
                    logDir.resolve(stray.location().name()), stray.stagedAtMs(), deleteStaleTopicDelayMs);
        }
    }

    /** One directory fsync per changed log dir, before the pass may call itself complete. */
    private void sync(ReconcilePass pass) {
        for (int dir : pass.changedLogDirs()) {
            if (offline.contains(dir)) {
                continue;
            }
            try {
                store.sync(logDirs.get(dir));
            } catch (IOException e) {
                failed(dir, "syncing", logDirs.get(dir), e, pass);
            }
        }
    }

    /**
     * Records a failed operation in log dir {@code dir}: a full disk takes the log dir offline
     * (true: the pass goes on without it); any other failure is a disk error of the pass
     * (false: the pass fails and is retried).
     */
    private boolean failed(int dir, String operation, Path path, IOException e, ReconcilePass pass) {
        if (!DiskFull.isCause(e)) {
            pass.diskError(operation, path, e);
            return false;
        }
        if (offline.add(dir)) {
            List<PartitionKey> held = local == null ? List.of() : local.liveIn(dir);
            offlinePartitions.addAll(held);
            if (local != null) {
                // Its strays wait there for a restart; left in the picture, their deadlines would fall due forever.
                local.forgetStraysIn(dir);
            }
            pass.offlined.add(logDirs.get(dir).toString());
            LOG.error("{}log dir {} is offline: {} {} failed: {}; its {} partitions (in place or being created)"
                    + " stay with it as they are, new ones go to the other log dirs ({} online), metadata is still"
                    + " served; free space and restart the broker to bring it back", logPrefix, logDirs.get(dir),
                    operation, path, e.getMessage(), held.size(), logDirs.size() - offline.size());
        }
        return true;
    }

    /** Whether partition {@code partition} of topic {@code topicId} stays with an offline log dir (in place there or being created there). */
    public boolean isOffline(UuidKey topicId, int partition) {
        return offlinePartitions.contains(new PartitionKey(topicId, partition));
    }

    /** The log dirs taken offline by a full disk since this reconciler started, in {@code log.dirs} order. */
    public List<Path> offlineLogDirs() {
        List<Path> dirs = new ArrayList<>();
        for (int dir : offline) {
            dirs.add(logDirs.get(dir));
        }
        return dirs;
    }

    /** When the first stray falls due for deletion or the first batch for its publish, whichever is first. */
    private long nextDeadlineMs() {
        if (local == null) {
            return Long.MAX_VALUE;
        }
        StrayDir first = local.firstStaged();
        long strayDue = first == null ? Long.MAX_VALUE : first.deadlineMs(deleteStaleTopicDelayMs);
        return Math.min(strayDue, local.unpublished.firstDueMs());
    }
}

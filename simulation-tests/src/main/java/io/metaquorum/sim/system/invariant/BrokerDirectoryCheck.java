package io.metaquorum.sim.system.invariant;

import io.metaquorum.broker.partition.PartitionMetadataFile;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.fs.SimFileSystem;
import io.metaquorum.sim.system.fs.SimPartitionStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * A broker's partition directories equal what the image it last reconciled completely
 * assigns it: every partition with the broker among its replicas has exactly one directory
 * {@code <topic>-<p>} holding its topic id (in {@code partition.metadata}, or in the
 * {@code partition.metadata.tmp} of a directory not yet published), and no other partition
 * directory exists. Strays
 * ({@code -stray}) are aside, but none may outlive its delete delay by more than
 * {@code strayGraceMs}. Catches a LogManager that skips the topic-id check on a directory it
 * finds (a deleted and re-created topic's old directory taken for live). A log dir a full disk
 * took offline is not read, and the partitions that stay with it are not expected elsewhere.
 */
public final class BrokerDirectoryCheck {
    public static final String NAME = "broker-directories-match-image";
    private static final String STRAY_SUFFIX = "-stray";

    private BrokerDirectoryCheck() {
    }

    /**
     * What a full disk took offline in the broker's current incarnation ({@code
     * PartitionReconciler.offlineLogDirs} and {@code isOffline}): an offline log dir is left as it
     * was, and a partition that stays with it is expected nowhere else.
     */
    public record Offline(Supplier<List<Path>> logDirs, BiPredicate<UuidKey, Integer> partition) {
        public static final Offline NONE = new Offline(List::of, (id, p) -> false);
    }

    public static void check(int brokerId, MetadataImage reconciled, SimFileSystem fs, Iterable<Path> logDirs,
                             Offline offline, long nowMs, long deleteDelayMs, long strayGraceMs) {
        TreeMap<String, UuidKey> expected = new TreeMap<>();
        for (TopicImage topic : reconciled.topics().sortedByName()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                if (topic.partition(p).hasReplica(brokerId) && !offline.partition().test(topic.id(), p)) {
                    expected.put(topic.name() + "-" + p, topic.id());
                }
            }
        }
        List<Path> offlineDirs = offline.logDirs().get();
        TreeMap<String, UuidKey> found = new TreeMap<>();
        for (Path logDir : logDirs) {
            if (offlineDirs.contains(logDir)) {
                continue;
            }
            for (Map.Entry<String, Boolean> entry : list(fs, logDir, brokerId)) {
                String name = entry.getKey();
                if (name.endsWith(STRAY_SUFFIX)) {
                    checkStrayAge(brokerId, logDir.resolve(name), name, nowMs, deleteDelayMs, strayGraceMs);
                    continue;
                }
                UuidKey id = topicId(fs, logDir.resolve(name));
                if (found.put(name, id) != null) {
                    fail(brokerId, reconciled, "partition directory " + name + " exists in two log dirs");
                }
            }
        }
        if (!expected.equals(found)) {
            fail(brokerId, reconciled, "directories " + found + ", the image assigns " + expected
                    + (offlineDirs.isEmpty() ? "" : " (offline log dirs " + offlineDirs + " not read)"));
        }
    }

    private static Iterable<Map.Entry<String, Boolean>> list(SimFileSystem fs, Path logDir, int brokerId) {
        try {
            return fs.list(logDir);
        } catch (IOException e) {
            throw new CheckFailure(NAME, "broker " + brokerId + ": log dir " + logDir + " cannot be listed: " + e);
        }
    }

    /** The topic id of {@code partition.metadata}, or of the unpublished {@code partition.metadata.tmp} when there is none yet. */
    private static UuidKey topicId(SimFileSystem fs, Path dir) {
        byte[] bytes = fs.read(dir.resolve(PartitionMetadataFile.FILE_NAME));
        if (bytes == null) {
            bytes = fs.read(dir.resolve(SimPartitionStore.TEMP_FILE));
        }
        if (bytes == null) {
            return null;
        }
        try {
            return PartitionMetadataFile.parse(bytes);
        } catch (PartitionMetadataFile.MalformedException e) {
            return null;
        }
    }

    private static void checkStrayAge(int brokerId, Path path, String name, long nowMs, long deleteDelayMs,
                                      long strayGraceMs) {
        String base = name.substring(0, name.length() - STRAY_SUFFIX.length());
        String stamp = base.substring(base.lastIndexOf('.') + 1);
        int underscore = stamp.indexOf('_');
        long stagedAtMs = Long.parseLong(underscore < 0 ? stamp : stamp.substring(0, underscore));
        if (nowMs > stagedAtMs + deleteDelayMs + strayGraceMs) {
            throw new CheckFailure(NAME, "broker " + brokerId + ": stray " + path + " staged at " + stagedAtMs
                    + " still there at " + nowMs + ", past its delay of " + deleteDelayMs + " ms");
        }
    }

    private static void fail(int brokerId, MetadataImage image, String detail) {
        throw new CheckFailure(NAME, "broker " + brokerId + " after reconciling the image at "
                + image.lastCommittedOffset() + ": " + detail);
    }
}

package io.metaquorum.broker.partition;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The counters and disk errors of one reconciliation pass; logs the errors as they happen (the first few). */
final class ReconcilePass {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionReconciler.class);
    /** Disk errors logged one by one in a pass; the rest are counted in the pass summary. */
    static final int DISK_ERRORS_LOGGED_MAX = 3;

    private final String logPrefix;
    private final List<String> diskErrors = new ArrayList<>();
    private final List<String> leftAlone = new ArrayList<>();
    /** The indexes of the log dirs whose entries this pass changed: they need a sync. */
    private final TreeSet<Integer> changedLogDirs = new TreeSet<>();
    int created;
    /** Directories whose metadata this pass synced and published. */
    int published;
    int removed;
    int strayed;
    int restored;
    int straysDeleted;
    /** Partition directories not created because every log dir is offline. */
    int notCreatedOffline;
    /** The log dirs this pass took offline (a full disk). */
    final List<String> offlined = new ArrayList<>();
    /** Set when the pass stopped at {@link PartitionReconciler#CREATES_PER_PASS_MAX} with directories left to create. */
    boolean creationsLeft;

    ReconcilePass(String logPrefix) {
        this.logPrefix = logPrefix;
    }

    void diskError(String operation, Path path, IOException e) {
        diskError(operation + " " + path + " failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    void diskError(String message) {
        diskErrors.add(message);
        if (diskErrors.size() <= DISK_ERRORS_LOGGED_MAX) {
            LOG.warn("{}{}; will retry", logPrefix, message);
        }
    }

    void changed(int logDir) {
        changedLogDirs.add(logDir);
    }

    TreeSet<Integer> changedLogDirs() {
        return changedLogDirs;
    }

    void leftAlone(String description) {
        leftAlone.add(description);
    }

    boolean failed() {
        return !diskErrors.isEmpty();
    }

    /** True once the pass has met so many disk errors that going on is pointless (a dir is gone or read-only). */
    boolean stopped() {
        return diskErrors.size() >= PartitionReconciler.DISK_ERRORS_PER_PASS_MAX;
    }

    int diskErrorCount() {
        return diskErrors.size();
    }

    /**
     * One line for a pass that changed something (a publish alone is not counted: it changes no
     * entry of a log dir, only names a synced file), and a warning for what it could not create.
     */
    void logSummary(long offset, ReconcileResult result, String live, String strays) {
        if (notCreatedOffline > 0) {
            LOG.warn("{}{} partition directories for offset {} not created: every log dir is offline", logPrefix,
                    notCreatedOffline, offset);
        }
        if (!result.changedNothing()) {
            LOG.info("{}partition directories at offset {}: {} created, {} deleted, {} staged as stray, {} restored, "
                    + "{} strays deleted, {} published; {} live, {} strays waiting", logPrefix, offset,
                    result.created(), result.removed(), result.strayed(), result.restored(), result.straysDeleted(),
                    published, live, strays);
        }
    }

    ReconcileResult result(long nextDeadlineMs) {
        return new ReconcileResult(!failed() && !creationsLeft, nextDeadlineMs, created, removed, strayed, restored,
                straysDeleted, diskErrors, leftAlone, creationsLeft && !failed());
    }
}

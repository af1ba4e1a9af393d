package io.metaquorum.broker.partition;

import java.util.List;

/**
 * What one {@link PartitionReconciler#reconcile} pass did.
 *
 * @param complete       true when every directory the image assigns is in place and every
 *                       unassigned one is gone or staged as stray; false after a disk error
 *                       (the caller retries later with the newest image)
 * @param nextDeadlineMs when the earliest stray becomes due for deletion (wall-clock ms), or
 *                       {@link Long#MAX_VALUE} when no stray waits; the caller calls again then
 * @param created        partition directories created
 * @param removed        partition directories deleted because the image no longer assigns them
 * @param strayed        directories renamed aside as strays
 * @param restored       strays renamed back because the image assigns their topic id again
 * @param straysDeleted  strays deleted because their delay passed
 * @param diskErrors     the failed operations, each with its path (at most
 *                       {@link PartitionReconciler#DISK_ERRORS_PER_PASS_MAX}; the pass stops there)
 * @param leftAlone      entries under a log dir first noticed in this pass that are not
 *                       partition directories (each reported once per reconciler)
 */
public record ReconcileResult(boolean complete, long nextDeadlineMs, int created, int removed, int strayed,
                              int restored, int straysDeleted, List<String> diskErrors, List<String> leftAlone) {
    public ReconcileResult {
        diskErrors = List.copyOf(diskErrors);
        leftAlone = List.copyOf(leftAlone);
    }

    /** True when the pass changed nothing on disk. */
    public boolean changedNothing() {
        return created + removed + strayed + restored + straysDeleted == 0;
    }
}

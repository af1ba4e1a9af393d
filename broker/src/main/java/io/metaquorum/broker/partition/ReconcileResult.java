package io.metaquorum.broker.partition;

import io.metaquorum.common.invariant.Invariants;
import java.util.List;

/**
 * What one {@link PartitionReconciler#reconcile} pass did.
 *
 * @param complete       true when every directory the image assigns is in place and every
 *                       unassigned one is gone or staged as stray, apart from those in log dirs
 *                       a full disk took offline (left as they are); false after a disk error
 *                       (the caller retries later with the newest image) and when
 *                       {@code creationsLeft}
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
 * @param creationsLeft  true when the pass, without a disk error, stopped at
 *                       {@link PartitionReconciler#CREATES_PER_PASS_MAX} new directories with
 *                       more to create: not a failure, the next pass is due at once and goes on
 */
public record ReconcileResult(boolean complete, long nextDeadlineMs, int created, int removed, int strayed,
                              int restored, int straysDeleted, List<String> diskErrors, List<String> leftAlone,
                              boolean creationsLeft) {
    public ReconcileResult {
        diskErrors = List.copyOf(diskErrors);
        leftAlone = List.copyOf(leftAlone);
        Invariants.check(!(complete && creationsLeft), "a pass with creations left is not complete");
        Invariants.check(!(creationsLeft && !diskErrors.isEmpty()), "a failed pass does not go on at once");
    }

    /** A result of a pass that did not stop at the creation bound. */
    public ReconcileResult(boolean complete, long nextDeadlineMs, int created, int removed, int strayed, int restored,
                           int straysDeleted, List<String> diskErrors, List<String> leftAlone) {
        this(complete, nextDeadlineMs, created, removed, strayed, restored, straysDeleted, diskErrors, leftAlone,
                false);
    }

    /** True when the pass failed on the disk (and is retried after a backoff). */
    public boolean failed() {
        return !complete && !creationsLeft;
    }

    /** True when the pass changed nothing on disk. */
    public boolean changedNothing() {
        return created + removed + strayed + restored + straysDeleted == 0;
    }
}

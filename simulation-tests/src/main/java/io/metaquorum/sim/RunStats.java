package io.metaquorum.sim;

/**
 * Counters of one run, for the CLI's verbose output and the tests: what the network did,
 * what the clients got, how much committed, how many leaders there were and how many faults
 * fired.
 *
 * @param committedOffsets the committed log's length as the checkers saw it
 * @param elections        epochs that had a leader
 * @param faultsInjected   discrete faults: crashes, graceful shutdowns, leader handoffs, wipes,
 *                         clock jumps, late joins, partitions, pauses, black holes and bad certificates
 * @param messageFaults    messages lost (by loss or a cut link), duplicated or delayed by a spike
 * @param diskFaults       syncs that stalled, torn batches left by crashes, and I/O errors
 * @param badCertificates  certificates that went bad (the {@code bad-certificate} fault), of {@code faultsInjected}
 * @param voterChanges     AddVoter and RemoveVoter requests that committed (the {@code membership} fault), of
 *                         {@code faultsInjected}
 */
public record RunStats(long messagesDelivered, long messagesLost, long unreachable, long timeouts, long appendsAccepted,
                       long appendsAcked, long committedOffsets, long crashesAndStops, long elections,
                       long faultsInjected, long messageFaults, long diskFaults, long badCertificates,
                       long voterChanges) {
    /** Every fault that fired, of any kind. */
    public long faultsFired() {
        return faultsInjected + messageFaults + diskFaults;
    }
}

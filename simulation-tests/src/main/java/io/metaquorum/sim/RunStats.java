package io.metaquorum.sim;

/** Counters of one run, for the CLI's verbose output and the tests. */
public record RunStats(long messagesDelivered, long messagesLost, long unreachable, long timeouts, long appendsAccepted,
                       long appendsAcked, long committedOffsets, long crashesAndStops, long elections) {
}

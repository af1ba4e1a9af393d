package io.metaquorum.sim.scheduler;

/** What an event does, for the trace hash, the event statistics and the timeline. */
public enum EventKind {
    /** A message or a transport failure reaches a node. */
    DELIVER,
    /** A node's driver runs one loop: inbound messages, poll, send. */
    NODE_STEP,
    /** A node's timer deadline (the deadline {@code poll} returned) is reached. */
    NODE_WAKE,
    /** A node's disk sync completes. */
    DISK_SYNC,
    /** A client append arrives. */
    CLIENT,
    /** A fault starts or ends: crash, restart, partition, wipe, resignation. */
    FAULT,
    /** Periodic housekeeping: call deadlines in the network. */
    HOUSEKEEPING
}

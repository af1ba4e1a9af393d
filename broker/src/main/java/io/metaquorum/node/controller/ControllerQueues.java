package io.metaquorum.node.controller;

/**
 * Where the controller's work waits for its turn: what raft reports (never refused, run in
 * raft's order) and requests (bounded: a full queue refuses, and the caller answers with a
 * retriable error). The host of a node decides how the queues are shared between threads: the
 * server's are concurrent and wake the controller's thread; a single-threaded host's are plain.
 */
public interface ControllerQueues {
    /** Requests waiting for the controller at most. */
    int REQUEST_QUEUE_MAX = 4096;

    /** Queues a raft report; never refused. */
    void addRaftEvent(ControllerOperation event);

    /** Queues a request; false when the queue already holds {@link #REQUEST_QUEUE_MAX}. */
    boolean offerRequest(ControllerOperation request);

    /** The oldest raft report, or null. */
    ControllerOperation pollRaftEvent();

    /** The oldest request, or null. */
    ControllerOperation pollRequest();
}

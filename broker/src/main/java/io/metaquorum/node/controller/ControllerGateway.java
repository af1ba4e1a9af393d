package io.metaquorum.node.controller;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.trace.RequestTrace;

/**
 * What a node's RPC endpoints (admin API, broker lifecycle) need of its controller and
 * image: where to send a write, and the committed image to answer reads from. Thread-safe.
 */
public interface ControllerGateway {
    /** This node's id. */
    int nodeId();

    /** Whether this node's controller is active right now (it may stop being so right after). */
    boolean isActive();

    /**
     * Runs {@code operation} on the controller's thread. False when its bounded queue is full;
     * the caller answers with a retriable error.
     */
    boolean submit(ControllerOperation operation);

    /**
     * As {@link #submit(ControllerOperation)}, marking the request's {@code trace} as the
     * controller runs it and raft takes and commits what it appended. A gateway that cannot
     * trace runs it untraced.
     */
    default boolean submit(ControllerOperation operation, RequestTrace trace) {
        return submit(operation);
    }

    /** The latest committed image this node has replayed; immutable. */
    MetadataImage committedImage();

    /** The raft leader (so the active controller) this node knows, -1 when none. */
    int knownControllerId();
}

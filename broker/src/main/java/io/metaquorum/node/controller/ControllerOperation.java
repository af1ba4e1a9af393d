package io.metaquorum.node.controller;

import io.metaquorum.metadata.controller.QuorumController;

/** One call into the quorum controller, run on its event loop's thread with that loop's time. */
@FunctionalInterface
public interface ControllerOperation {
    void run(QuorumController controller, long nowMs);
}

package io.metaquorum.sim.system.workload;

import java.util.List;

/**
 * A node's answer to one attempt: a result per item asked, and the active controller's id as
 * the node knows it (-1 when it does not), which a client that must find the controller
 * again moves to.
 */
public record AdminAnswer(List<ItemResult> items, int controllerId) {
    public AdminAnswer {
        items = List.copyOf(items);
    }
}

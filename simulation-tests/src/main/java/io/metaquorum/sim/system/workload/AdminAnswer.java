package io.metaquorum.sim.system.workload;

import io.metaquorum.protocol.ErrorCode;
import java.util.List;

/**
 * A node's answer to one attempt: a result per item it answered, the request-level code of
 * its header (an item the answer holds no result for takes it), and the active controller's
 * id as the node knows it (-1 when it does not), which a client that must find the
 * controller again moves to.
 */
public record AdminAnswer(List<ItemResult> items, ErrorCode requestCode, int controllerId) {
    public AdminAnswer {
        items = List.copyOf(items);
    }

    /** An answer whose header carries no error. */
    public AdminAnswer(List<ItemResult> items, int controllerId) {
        this(items, ErrorCode.NONE, controllerId);
    }
}

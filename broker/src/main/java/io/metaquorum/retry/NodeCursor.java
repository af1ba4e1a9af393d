package io.metaquorum.retry;

import java.util.List;
import java.util.Map;

/**
 * Which node the next attempt of an admin call goes to. It starts at the first bootstrap node
 * and stays on a node while it answers. A refresh moves to the active controller the answer
 * named when its address is known, else to the next bootstrap node in order (wrapping around):
 * any node serves the admin API and forwards writes to the controller, so another node is the
 * refresh.
 *
 * <p>Invariant: {@code 0 <= index < bootstrap.size()}.
 *
 * @param <N> how a node is addressed (a host and port, or a simulated node's id)
 */
public final class NodeCursor<N> {
    private final List<N> bootstrap;
    private final Map<Integer, N> knownAddresses;
    private int index;
    private N current;

    /** @param knownAddresses the nodes by id, as far as they are known; read at each refresh */
    public NodeCursor(List<N> bootstrap, Map<Integer, N> knownAddresses) {
        if (bootstrap.isEmpty()) {
            throw new IllegalArgumentException("no bootstrap node");
        }
        this.bootstrap = List.copyOf(bootstrap);
        this.knownAddresses = knownAddresses;
        this.current = this.bootstrap.get(0);
    }

    public synchronized N current() {
        return current;
    }

    /** After a REFRESH_AND_RETRY answer or transport failure; {@code controllerId} -1 when none was named. */
    public synchronized void refresh(int controllerId) {
        N controller = controllerId >= 0 ? knownAddresses.get(controllerId) : null;
        if (controller != null && !controller.equals(current)) {
            current = controller;
            return;
        }
        index = (index + 1) % bootstrap.size();
        current = bootstrap.get(index);
    }
}

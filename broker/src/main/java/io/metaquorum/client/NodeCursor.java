package io.metaquorum.client;

import io.metaquorum.server.HostPort;
import java.util.List;
import java.util.Map;

/**
 * Which node the next attempt goes to. It starts at the first bootstrap node and stays on a
 * node while it answers. A refresh moves to the active controller the answer named when its
 * address is known, else to the next bootstrap node in order (wrapping around): any node
 * serves the admin API and forwards writes to the controller, so another node is the refresh.
 *
 * <p>Invariant: {@code 0 <= index < bootstrap.size()} while no controller address is chosen.
 */
final class NodeCursor {
    private final List<HostPort> bootstrap;
    private final Map<Integer, HostPort> knownAddresses;
    private int index;
    private HostPort current;

    NodeCursor(List<HostPort> bootstrap, Map<Integer, HostPort> knownAddresses) {
        if (bootstrap.isEmpty()) {
            throw new IllegalArgumentException("no bootstrap node");
        }
        this.bootstrap = List.copyOf(bootstrap);
        this.knownAddresses = knownAddresses;
        this.current = this.bootstrap.get(0);
    }

    synchronized HostPort current() {
        return current;
    }

    /** After a REFRESH_AND_RETRY answer or transport failure; {@code controllerId} -1 when none was named. */
    synchronized void refresh(int controllerId) {
        HostPort controller = controllerId >= 0 ? knownAddresses.get(controllerId) : null;
        if (controller != null && !controller.equals(current)) {
            current = controller;
            return;
        }
        index = (index + 1) % bootstrap.size();
        current = bootstrap.get(index);
    }
}

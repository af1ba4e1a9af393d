package io.metaquorum.node.controller;

import java.util.ArrayDeque;

/** {@link ControllerQueues} for a host that runs raft, the endpoints and the controller on one thread. */
public final class SerialControllerQueues implements ControllerQueues {
    private final ArrayDeque<ControllerOperation> raftEvents = new ArrayDeque<>();
    private final ArrayDeque<ControllerOperation> requests = new ArrayDeque<>();

    @Override
    public void addRaftEvent(ControllerOperation event) {
        raftEvents.add(event);
    }

    @Override
    public boolean offerRequest(ControllerOperation request) {
        if (requests.size() >= REQUEST_QUEUE_MAX) {
            return false;
        }
        requests.add(request);
        return true;
    }

    @Override
    public ControllerOperation pollRaftEvent() {
        return raftEvents.poll();
    }

    @Override
    public ControllerOperation pollRequest() {
        return requests.poll();
    }

    /** Whether anything waits: the host runs another turn at once. */
    public boolean hasWork() {
        return !raftEvents.isEmpty() || !requests.isEmpty();
    }
}

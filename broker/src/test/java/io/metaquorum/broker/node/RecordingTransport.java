package io.metaquorum.broker.node;

import io.metaquorum.broker.lifecycle.LifecycleCall;
import java.util.ArrayList;
import java.util.List;

/** A {@link LifecycleTransport} that keeps every call sent; a test answers it through its callback. */
final class RecordingTransport implements LifecycleTransport {
    record Sent(int controllerId, LifecycleCall call, Callback callback) {
    }

    final List<Sent> sent = new ArrayList<>();

    @Override
    public void send(int controllerId, LifecycleCall call, Callback callback) {
        sent.add(new Sent(controllerId, call, callback));
    }

    Sent last() {
        return sent.get(sent.size() - 1);
    }
}

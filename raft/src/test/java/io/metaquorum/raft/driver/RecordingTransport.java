package io.metaquorum.raft.driver;

import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.transport.Transport;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** A transport that goes nowhere: it records what is sent and whether it was closed. */
final class RecordingTransport implements Transport {
    final List<RaftMessage> sent = new CopyOnWriteArrayList<>();
    final CountDownLatch closed = new CountDownLatch(1);
    volatile int closeCount;

    @Override
    public void send(RaftMessage message) {
        sent.add(message);
    }

    @Override
    public void close() {
        closeCount++;
        closed.countDown();
    }
}

package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.transport.Transport.InboundSink;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Collects what a transport delivers; tests wait for it with a bounded timeout. */
final class RecordingSink implements InboundSink {
    /** Generous: a bound that only a hung test reaches, never a timing assertion. */
    static final long WAIT_SECONDS = 30;

    private final LinkedBlockingQueue<RaftMessage> delivered = new LinkedBlockingQueue<>();

    @Override
    public void deliver(RaftMessage message) {
        delivered.add(message);
    }

    <T extends RaftMessage> T next(Class<T> type) throws InterruptedException {
        RaftMessage message = delivered.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(message, "nothing delivered within " + WAIT_SECONDS + " s");
        return assertInstanceOf(type, message);
    }

    /** What was delivered and not yet taken; no waiting. */
    int pending() {
        return delivered.size();
    }
}

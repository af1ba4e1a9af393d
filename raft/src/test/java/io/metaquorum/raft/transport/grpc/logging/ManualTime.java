package io.metaquorum.raft.transport.grpc.logging;

import io.metaquorum.common.time.Time;

/** A clock that moves only when the test says so. */
final class ManualTime implements Time {
    private long nowMs = 1_000_000;

    void advanceMs(long ms) {
        nowMs += ms;
    }

    @Override
    public long milliseconds() {
        return nowMs;
    }

    @Override
    public long nanoseconds() {
        return nowMs * 1_000_000;
    }
}

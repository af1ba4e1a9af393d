package io.metaquorum.node.trace;

import io.metaquorum.common.time.Time;

/** A clock the test moves by hand. */
final class ManualTime implements Time {
    long nanos;

    void advanceMicros(long micros) {
        nanos += micros * 1_000;
    }

    @Override
    public long milliseconds() {
        return nanos / 1_000_000;
    }

    @Override
    public long nanoseconds() {
        return nanos;
    }
}

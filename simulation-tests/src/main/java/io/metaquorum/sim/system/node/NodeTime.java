package io.metaquorum.sim.system.node;

import io.metaquorum.common.time.Time;
import java.util.function.LongSupplier;

/** A simulated node's local clock as the production {@link Time} port. */
public final class NodeTime implements Time {
    private final LongSupplier localNowMs;

    public NodeTime(LongSupplier localNowMs) {
        this.localNowMs = localNowMs;
    }

    @Override
    public long milliseconds() {
        return localNowMs.getAsLong();
    }

    @Override
    public long nanoseconds() {
        return localNowMs.getAsLong() * 1_000_000L;
    }
}

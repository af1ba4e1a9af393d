package io.metaquorum.common.time;

/** The wall clock. The one place production code reads it. */
public final class SystemTime implements Time {
    public static final SystemTime INSTANCE = new SystemTime();

    private SystemTime() {
    }

    @Override
    public long milliseconds() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanoseconds() {
        return System.nanoTime();
    }
}

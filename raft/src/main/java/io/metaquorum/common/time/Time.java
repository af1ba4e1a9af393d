package io.metaquorum.common.time;

/** The clock, injected. Only drivers and tools read it; the consensus core takes nowMs. */
public interface Time {
    long milliseconds();

    long nanoseconds();
}

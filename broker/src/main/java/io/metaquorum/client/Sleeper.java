package io.metaquorum.client;

/** Waits between attempts; a test gives one that only advances its clock. */
@FunctionalInterface
public interface Sleeper {
    Sleeper SYSTEM = Thread::sleep;

    void sleepMs(long ms) throws InterruptedException;
}

package io.metaquorum.sim.network;

/** Counters of what the network did during a run. */
public final class NetworkStats {
    long sent;
    long delivered;
    long lost;
    long unreachable;
    long timedOut;
    long duplicated;
    long delaySpikes;

    public long sent() {
        return sent;
    }

    public long delivered() {
        return delivered;
    }

    public long lost() {
        return lost;
    }

    public long unreachable() {
        return unreachable;
    }

    public long timedOut() {
        return timedOut;
    }

    /** Messages sent a second time (the duplicate fault). */
    public long duplicated() {
        return duplicated;
    }

    /** Delays that drew a spike (the delay fault's stalled links). */
    public long delaySpikes() {
        return delaySpikes;
    }
}

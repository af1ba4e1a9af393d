package io.metaquorum.sim.network;

/**
 * How the simulated network treats each message, drawn per seed.
 *
 * <p>Delay model: {@code minDelayMs} plus an exponentially distributed extra with mean
 * {@code meanExtraDelayMs}, plus, with probability {@code spikeProbability}, a uniform spike
 * of up to {@code spikeMaxMs} (a stalled link or a slow peer). Without {@code reorder}, each
 * directed link delivers in send order (one TCP connection); with it, every message's delay
 * is independent, so later messages overtake earlier ones.
 *
 * @param lossProbability      a message silently vanishes; its call then times out
 * @param duplicateProbability a message is delivered a second time, with its own delay
 * @param callTimeoutMs        the transport's deadline for an answer (gRPC deadline)
 */
public record NetworkProfile(int minDelayMs, int meanExtraDelayMs, double spikeProbability, int spikeMaxMs,
                             double lossProbability, double duplicateProbability, boolean reorder,
                             int callTimeoutMs) {
    public NetworkProfile {
        if (minDelayMs < 0 || meanExtraDelayMs < 0 || spikeMaxMs < 0 || callTimeoutMs <= 0) {
            throw new IllegalArgumentException("network delays must be >= 0 and the call timeout > 0");
        }
        requireProbability(spikeProbability);
        requireProbability(lossProbability);
        requireProbability(duplicateProbability);
    }

    /** A healthy LAN: 1-3 ms, nothing lost, duplicated or reordered. */
    public static NetworkProfile reliable(int callTimeoutMs) {
        return new NetworkProfile(1, 1, 0, 0, 0, 0, false, callTimeoutMs);
    }

    /** The same delays without loss, duplication or spikes: what the liveness phase heals to. */
    public NetworkProfile healed() {
        return new NetworkProfile(minDelayMs, meanExtraDelayMs, 0, 0, 0, 0, reorder, callTimeoutMs);
    }

    private static void requireProbability(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability must lie in [0, 1], got " + p);
        }
    }
}

package io.metaquorum.raft.core.role;

import io.metaquorum.raft.RaftTimeouts;
import java.util.random.RandomGenerator;

/**
 * The randomized timers of elections (docs/kafka-compatibility.md, "Raft timers and defaults"): the election timeout in [T, 2T),
 * the binary exponential backoff after a lost election, the strict backoff of the
 * preferred successors after EndQuorumEpoch, and the turns the survivors take before a
 * pre-vote when the transport reports the leader gone. All randomness comes from the
 * injected source.
 */
public final class ElectionTimers {
    private static final int BACKOFF_BASE_MS = 100;
    private static final int RETRIES_SHIFT_MAX = 10;

    private final RaftTimeouts timeouts;
    private final RandomGenerator random;

    public ElectionTimers(RaftTimeouts timeouts, RandomGenerator random) {
        this.timeouts = timeouts;
        this.random = random;
    }

    public long electionTimeoutMs() {
        int base = timeouts.electionTimeoutMs();
        return base + random.nextInt(base);
    }

    /** After the {@code retries}-th lost election: min(100 ms x rand[0, 2^retries), backoff max). */
    public long electionBackoffMs(int retries) {
        int bound = 1 << Math.max(1, Math.min(retries, RETRIES_SHIFT_MAX));
        long backoff = (long) Math.min(BACKOFF_BASE_MS, timeouts.electionBackoffMaxMs()) * random.nextInt(bound);
        return Math.min(backoff, timeouts.electionBackoffMaxMs());
    }

    /**
     * The wait of the successor at {@code position} among {@code successors}: the first
     * campaigns at once, the others wait exponentially longer so the most caught-up wins.
     */
    public long endQuorumEpochBackoffMs(int position, int successors) {
        if (position <= 0) {
            return 0;
        }
        int shift = Math.max(0, successors - position);
        return timeouts.electionBackoffMaxMs() >> shift;
    }

    /**
     * The wait before pre-voting when the connection to the leader broke. Every follower
     * learns of the crash at about the same moment; rather than a random jitter (which still
     * lets two of them collide and split the vote), the survivors take turns by id: the
     * {@code rank}-th lowest waits one retry backoff plus {@code rank} steps of a twentieth
     * of the election timeout (20 + rank x 50 ms by default). The retry backoff keeps a voter
     * that a peer keeps sending back to the old leader from looping without pause.
     */
    public long unreachableLeaderDelayMs(int rank) {
        return timeouts.retryBackoffMs() + (long) rank * Math.max(1, timeouts.electionTimeoutMs() / 20);
    }
}

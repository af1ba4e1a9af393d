package io.metaquorum.retry;

/**
 * The limits of an admin client's calls.
 *
 * @param attemptTimeoutMsMax the longest one attempt at one node may wait before the client
 *     tries another node (a hung node does not use up the whole call)
 * @param backoffMsInitial the wait before the first retry; it doubles with each retry
 * @param backoffMsMax the longest wait between two attempts
 */
public record AdminOptions(long attemptTimeoutMsMax, long backoffMsInitial, long backoffMsMax) {
    public static final AdminOptions DEFAULT = new AdminOptions(10_000, 50, 1_000);

    public AdminOptions {
        if (attemptTimeoutMsMax <= 0 || backoffMsInitial <= 0 || backoffMsMax < backoffMsInitial) {
            throw new IllegalArgumentException("need attemptTimeoutMsMax > 0 and 0 < backoffMsInitial <= backoffMsMax, got "
                    + attemptTimeoutMsMax + ", " + backoffMsInitial + ", " + backoffMsMax);
        }
    }

    /** The wait before retry number {@code retry} (1 for the first). */
    public long backoffMs(int retry) {
        long backoff = backoffMsInitial;
        for (int i = 1; i < retry && backoff < backoffMsMax; i++) {
            backoff *= 2;
        }
        return Math.min(backoff, backoffMsMax);
    }
}

package io.metaquorum.security.certs;

import java.time.Duration;
import java.time.Instant;

/**
 * When a certificate is valid. Taken as two instants rather than a length from "now" so that
 * a caller decides the clock: tests make a certificate that has already expired.
 */
public record Validity(Instant notBefore, Instant notAfter) {
    /**
     * How far {@link #days} starts in the past: a peer whose clock runs a little behind would
     * otherwise reject a certificate made a moment ago as not yet valid.
     */
    static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofMinutes(5);

    public Validity {
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("notAfter " + notAfter + " must be after notBefore " + notBefore);
        }
    }

    /** Valid from shortly before {@code now} until {@code days} days after it. */
    public static Validity days(Instant now, int days) {
        if (days < 1) {
            throw new IllegalArgumentException("days must be at least 1, got " + days);
        }
        return new Validity(now.minus(CLOCK_SKEW_ALLOWANCE), now.plus(Duration.ofDays(days)));
    }
}

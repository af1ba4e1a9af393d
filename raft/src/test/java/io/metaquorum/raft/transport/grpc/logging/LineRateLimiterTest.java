package io.metaquorum.raft.transport.grpc.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LineRateLimiterTest {
    private static final long INTERVAL_MS = 10_000;

    private final ManualTime time = new ManualTime();
    private final LineRateLimiter limiter = new LineRateLimiter(time, INTERVAL_MS);

    @Test
    void theFirstLineOfAKindIsWrittenWithNothingLeftOut() {
        assertEquals(Optional.of(new LineRateLimiter.Admitted(0, 0)), limiter.maybeAdmit("a"));
        assertEquals("", limiter.maybeAdmit("b").orElseThrow().suffix());
    }

    @Test
    void linesWithinTheIntervalAreCountedAndTheNextLineSaysHowMany() {
        limiter.maybeAdmit("a").orElseThrow();
        for (int i = 0; i < 57; i++) {
            time.advanceMs(100);
            assertTrue(limiter.maybeAdmit("a").isEmpty(), "line " + i + " within the interval was written");
        }
        time.advanceMs(INTERVAL_MS - 5_700);

        LineRateLimiter.Admitted next = limiter.maybeAdmit("a").orElseThrow();

        assertEquals(new LineRateLimiter.Admitted(57, INTERVAL_MS), next);
        assertEquals(" (and 57 more like it in the last 10 s)", next.suffix());
    }

    @Test
    void theWindowEndsExactlyOneIntervalAfterTheLineWritten() {
        limiter.maybeAdmit("a").orElseThrow();
        time.advanceMs(INTERVAL_MS - 1);
        assertTrue(limiter.maybeAdmit("a").isEmpty());
        time.advanceMs(1);
        assertEquals(1, limiter.maybeAdmit("a").orElseThrow().suppressed());
        // A new window opened with that line: the count starts again.
        assertTrue(limiter.maybeAdmit("a").isEmpty());
    }

    @Test
    void aQuietKindSaysNothingLeftOutAndTheTimeSinceItsLastLine() {
        limiter.maybeAdmit("a").orElseThrow();
        time.advanceMs(34_500);
        assertEquals(new LineRateLimiter.Admitted(0, 34_500), limiter.maybeAdmit("a").orElseThrow());
        time.advanceMs(1_000);
        limiter.maybeAdmit("a");
        time.advanceMs(33_500);
        assertEquals(" (and 1 more like it in the last 35 s)", limiter.maybeAdmit("a").orElseThrow().suffix());
    }

    @Test
    void kindsAreLimitedApart() {
        limiter.maybeAdmit("a").orElseThrow();
        assertTrue(limiter.maybeAdmit("a").isEmpty());
        assertEquals(0, limiter.maybeAdmit("b").orElseThrow().suppressed());
        assertTrue(limiter.maybeAdmit("b").isEmpty());
    }

    @Test
    void aFullTableForgetsExpiredKindsThenSharesOneWindowForNewOnes() {
        for (int i = 0; i < LineRateLimiter.KEYS_MAX; i++) {
            limiter.maybeAdmit(i).orElseThrow();
        }
        // Full and nothing expired: new kinds share the overflow window, so they are limited too.
        assertTrue(limiter.maybeAdmit("new-1").isPresent());
        assertTrue(limiter.maybeAdmit("new-2").isEmpty());
        assertEquals(LineRateLimiter.KEYS_MAX + 1, limiter.keys());

        time.advanceMs(INTERVAL_MS);
        assertTrue(limiter.maybeAdmit("new-3").isPresent());
        assertEquals(1, limiter.keys(), "expired windows were not forgotten");
    }
}

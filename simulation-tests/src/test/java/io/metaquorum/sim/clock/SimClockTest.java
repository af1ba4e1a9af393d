package io.metaquorum.sim.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class SimClockTest {
    @Test
    void withoutDriftLocalTimeIsGlobalTimePlusSkew() {
        NodeClock clock = new NodeClock(250, 0);
        assertEquals(NodeClock.EPOCH_BASE_MS + 250, clock.localMs(0));
        assertEquals(NodeClock.EPOCH_BASE_MS + 250 + 1234, clock.localMs(1234));
        assertEquals(1234, clock.globalMsAt(NodeClock.EPOCH_BASE_MS + 250 + 1234, 0));
    }

    @Test
    void aFastClockReachesItsDeadlinesEarly() {
        NodeClock fast = new NodeClock(0, 100_000);
        long deadline = fast.localMs(0) + 1100;
        assertEquals(1000, fast.globalMsAt(deadline, 0));
    }

    @Test
    void aJumpMovesTheClockForwardAndMakesDeadlinesDue() {
        NodeClock clock = new NodeClock(0, 0);
        long deadline = clock.localMs(0) + 5000;
        clock.jumpForward(3000, 1000);
        assertEquals(NodeClock.EPOCH_BASE_MS + 4000, clock.localMs(1000));
        assertEquals(2000, clock.globalMsAt(deadline, 1000));
        assertThrows(IllegalArgumentException.class, () -> clock.jumpForward(-1, 1000));
    }

    @Test
    void neverIsNever() {
        assertEquals(Long.MAX_VALUE, new NodeClock(0, 3000).globalMsAt(Long.MAX_VALUE, 10));
    }

    @Property(tries = 300)
    void globalMsAtIsTheFirstMillisecondTheLocalClockReachesTheDeadline(
            @ForAll @IntRange(min = -400_000, max = 400_000) int driftPpm,
            @ForAll @LongRange(min = 0, max = 100_000) long skewMs,
            @ForAll @LongRange(min = 0, max = 10_000_000) long nowMs,
            @ForAll @LongRange(min = -1000, max = 5_000_000) long aheadMs,
            @ForAll @IntRange(min = -400_000, max = 400_000) int laterDriftPpm) {
        NodeClock clock = new NodeClock(skewMs, driftPpm);
        clock.setDriftPpm(laterDriftPpm, nowMs / 2);
        long deadline = clock.localMs(nowMs) + aheadMs;
        long at = clock.globalMsAt(deadline, nowMs);
        assertTrue(at >= nowMs);
        assertTrue(clock.localMs(at) >= deadline, "reaches the deadline");
        assertTrue(at == nowMs || clock.localMs(at - 1) < deadline, "and not a millisecond earlier");
        assertTrue(clock.localMs(at + 1) >= clock.localMs(at), "monotonic");
    }
}

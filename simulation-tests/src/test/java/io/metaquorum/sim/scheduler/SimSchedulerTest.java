package io.metaquorum.sim.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.sim.clock.SimClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimSchedulerTest {
    private final SimClock clock = new SimClock();
    private final EventScheduler scheduler = new EventScheduler(clock, 100);

    @Test
    void runsByTimeThenBySchedulingOrder() {
        List<String> ran = new ArrayList<>();
        scheduler.schedule(20, EventKind.FAULT, -1, () -> ran.add("b@20"));
        scheduler.schedule(10, EventKind.FAULT, -1, () -> ran.add("a@10"));
        scheduler.schedule(20, EventKind.FAULT, -1, () -> ran.add("c@20"));
        scheduler.schedule(10, EventKind.FAULT, -1, () -> ran.add("d@10"));
        while (scheduler.runNext() != null) {
            ran.add("t=" + clock.nowMs());
        }
        assertEquals(List.of("a@10", "t=10", "d@10", "t=10", "b@20", "t=20", "c@20", "t=20"), ran);
        assertEquals(4, scheduler.executedCount());
    }

    @Test
    void jumpsTheClockStraightToTheNextEvent() {
        scheduler.schedule(1_000_000, EventKind.NODE_WAKE, 1, () -> { });
        scheduler.runNext();
        assertEquals(1_000_000, clock.nowMs());
        assertNull(scheduler.runNext());
    }

    @Test
    void eventsScheduledDuringAnEventRunAfterItEvenAtTheSameTime() {
        List<Integer> ran = new ArrayList<>();
        scheduler.schedule(5, EventKind.FAULT, -1, () -> {
            ran.add(1);
            scheduler.scheduleAfter(0, EventKind.FAULT, -1, () -> ran.add(3));
        });
        scheduler.schedule(5, EventKind.FAULT, -1, () -> ran.add(2));
        while (scheduler.runNext() != null) {
            // drain
        }
        assertEquals(List.of(1, 2, 3), ran);
    }

    @Test
    void refusesThePastAndARunawayQueue() {
        scheduler.schedule(10, EventKind.FAULT, -1, () -> { });
        scheduler.runNext();
        assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(9, EventKind.FAULT, -1, () -> { }));
        for (int i = 0; i < 100; i++) {
            scheduler.scheduleAfter(i, EventKind.FAULT, -1, () -> { });
        }
        assertThrows(IllegalStateException.class, () -> scheduler.scheduleAfter(1, EventKind.FAULT, -1, () -> { }));
    }

    @Test
    void theClockNeverGoesBack() {
        clock.advanceTo(50);
        assertThrows(IllegalStateException.class, () -> clock.advanceTo(49));
    }
}

package io.metaquorum.security.grpc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RefusalLogTest {
    @Test
    void oneLinePerKindPerInterval() {
        AtomicLong now = new AtomicLong();
        RefusalLog log = new RefusalLog("[node 1] ", now::get);
        assertTrue(log.refused("10.0.0.1", "unauthenticated", "no rule matches"), "the first of its kind");
        for (int i = 0; i < 100; i++) {
            assertFalse(log.refused("10.0.0.1", "unauthenticated", "no rule matches"), "within the interval");
        }
        assertTrue(log.refused("10.0.0.2", "forwarded principal refused", "not a node"), "another kind has its own");
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(RefusalLog.INTERVAL_MS) - 1);
        assertFalse(log.refused("10.0.0.1", "unauthenticated", "again"), "one nanosecond early");
        now.incrementAndGet();
        assertTrue(log.refused("10.0.0.1", "unauthenticated", "again"), "the interval passed");
    }
}

package io.metaquorum.process;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Polls a condition until it holds or a deadline passes: the only way these tests wait.
 * Nothing is asserted after a fixed sleep; a probe that sees something which can no longer
 * turn out well (a node exited) throws at once instead of waiting out the deadline.
 */
final class BoundedWait {
    static final long POLL_INTERVAL_MS = 100;

    private BoundedWait() {
    }

    /**
     * Calls {@code probe} every {@value #POLL_INTERVAL_MS} ms until it returns a value, and
     * returns it; fails after {@code waitMs} with {@code what} and {@code diagnostics}.
     */
    static <T> T until(String what, long waitMs, Supplier<Optional<T>> probe, Supplier<String> diagnostics) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (true) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("not within " + waitMs + " ms: " + what + "\n" + diagnostics.get());
            }
            try {
                Thread.sleep(POLL_INTERVAL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + what, e);
            }
        }
    }
}

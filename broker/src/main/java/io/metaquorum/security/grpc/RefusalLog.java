package io.metaquorum.security.grpc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WARN line per refused call, naming the peer and the reason, at most one per kind of
 * refusal per {@value #INTERVAL_MS} ms; the next line says how many were left out. A peer
 * that retries a refused call in a loop must not be able to fill the node's log.
 *
 * <p>Thread-safe.
 */
public final class RefusalLog {
    static final long INTERVAL_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);

    private final String logPrefix;
    private final LongSupplier nanoTime;
    private final Map<String, Window> windows = new LinkedHashMap<>();

    private static final class Window {
        long openedNanos;
        long suppressed;
    }

    public RefusalLog(String logPrefix, LongSupplier nanoTime) {
        this.logPrefix = logPrefix;
        this.nanoTime = nanoTime;
    }

    /**
     * Records a refusal of {@code kind} from {@code peer}; logs it unless one of its kind was
     * logged lately. Returns whether it wrote a line.
     */
    public boolean refused(String peer, String kind, String reason) {
        long suppressed;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            Window window = windows.get(kind);
            if (window != null && now - window.openedNanos < TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS)) {
                window.suppressed++;
                return false;
            }
            if (window == null) {
                window = new Window();
                windows.put(kind, window);
            }
            suppressed = window.suppressed;
            window.openedNanos = now;
            window.suppressed = 0;
        }
        String more = suppressed == 0 ? "" : " (and " + suppressed + " more like it since the last such line)";
        LOG.warn("{}refused a call from {}: {}: {}{}", logPrefix, peer, kind, reason, more);
        return true;
    }
}

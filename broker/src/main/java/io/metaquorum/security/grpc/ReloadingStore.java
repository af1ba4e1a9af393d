package io.metaquorum.security.grpc;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current value read from a store's files, read again when the files change. It is looked
 * at from the handshake path, at most once per check interval, so a rotated certificate is in
 * use from the first connection made about a second after the files changed, and no thread
 * polls for it. A store that cannot be read (a half-written file) keeps the last good value and
 * is reported once per change, then tried again when the files change again.
 *
 * <p>Thread-safe: handshakes of many connections may look at once.
 */
final class ReloadingStore<T> {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingStore.class);
    static final long CHECK_INTERVAL_MS = 1_000;

    private final String what;
    private final List<Path> files;
    private final Supplier<T> reader;
    private final LongSupplier nanoTime;
    private volatile Generation<T> current;
    private FileSignature lastSeen;
    private long nextCheckNanos;

    record Generation<T>(int number, T value) {
    }

    /** Reads the store once now; throws if it cannot be read, so a node does not start with no key. */
    ReloadingStore(String what, List<Path> files, Supplier<T> reader, LongSupplier nanoTime) {
        this.what = what;
        this.files = List.copyOf(files);
        this.reader = reader;
        this.nanoTime = nanoTime;
        this.lastSeen = FileSignature.of(this.files);
        this.current = new Generation<>(0, reader.get());
        this.nextCheckNanos = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(CHECK_INTERVAL_MS);
    }

    /** The value to use now, after reading the files again if they changed. */
    Generation<T> current() {
        if (!files.isEmpty() && nanoTime.getAsLong() - nextCheckNanos >= 0) {
            check();
        }
        return current;
    }

    private synchronized void check() {
        long now = nanoTime.getAsLong();
        if (now - nextCheckNanos < 0) {
            return;
        }
        nextCheckNanos = now + TimeUnit.MILLISECONDS.toNanos(CHECK_INTERVAL_MS);
        FileSignature seen = FileSignature.of(files);
        if (seen.equals(lastSeen)) {
            return;
        }
        lastSeen = seen;
        try {
            current = new Generation<>(current.number() + 1, reader.get());
            LOG.info("reloaded {} from {}: new connections use it", what, files);
        } catch (RuntimeException e) {
            LOG.warn("cannot reload {} from {}, still using the one read before: {}", what, files, e.getMessage());
        }
    }
}

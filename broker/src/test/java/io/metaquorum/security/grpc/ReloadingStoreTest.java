package io.metaquorum.security.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReloadingStoreTest {
    private static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(ReloadingStore.CHECK_INTERVAL_MS);

    @TempDir
    Path dir;

    private static String read(Path file) {
        try {
            String text = Files.readString(file);
            if (text.startsWith("broken")) {
                throw new StoreLoadException("cannot read " + file + ": half written");
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aChangedFileIsReadAgainAtTheNextCheckAndABrokenOneKeepsTheLastGood() throws IOException {
        Path file = Files.writeString(dir.resolve("store"), "v1");
        AtomicLong now = new AtomicLong(1_000);
        ReloadingStore<String> store = new ReloadingStore<>("test store", List.of(file), () -> read(file), now::get);
        assertEquals(new ReloadingStore.Generation<>(0, "v1"), store.current());

        Files.writeString(file, "v2 is longer");
        assertEquals("v1", store.current().value(), "not checked before the interval");
        now.addAndGet(INTERVAL_NANOS);
        assertEquals(new ReloadingStore.Generation<>(1, "v2 is longer"), store.current());

        Files.writeString(file, "broken, half of v3");
        now.addAndGet(INTERVAL_NANOS);
        assertEquals(new ReloadingStore.Generation<>(1, "v2 is longer"), store.current(), "the last good one stays");

        Files.writeString(file, "v3, whole at last");
        now.addAndGet(INTERVAL_NANOS);
        assertEquals(new ReloadingStore.Generation<>(2, "v3, whole at last"), store.current());
        now.addAndGet(INTERVAL_NANOS);
        assertEquals(2, store.current().number(), "no new generation while the files stay as they are");
    }

    @Test
    void aStoreThatCannotBeReadAtStartStopsTheStart() throws IOException {
        Path file = Files.writeString(dir.resolve("store"), "broken from the start");
        assertThrows(StoreLoadException.class,
                () -> new ReloadingStore<>("test store", List.of(file), () -> read(file), System::nanoTime));
    }
}

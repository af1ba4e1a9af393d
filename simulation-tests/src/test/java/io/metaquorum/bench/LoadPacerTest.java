package io.metaquorum.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LoadPacerTest {
    private static final long START = 1_000_000_000L;

    @Test
    void aSingleWriterIsWokenWhenItsNextRecordIsDue() {
        LoadPacer pacer = new LoadPacer(100, START);
        assertEquals(0, pacer.nextChunk(0, 0, START + 5_000_000));
        // The first record is due at 10 ms: park in ticks of at most 1 ms, the last one to the due time.
        assertEquals(1_000_000, pacer.parkNanos(0, START + 5_000_000));
        assertEquals(400_000, pacer.parkNanos(0, START + 9_600_000));
        assertEquals(1, pacer.nextChunk(0, 0, START + 10_000_000));
        assertEquals(START + 10_000_000, pacer.dueNanos(0, START + 10_400_000));
        assertEquals(START + 20_000_000, pacer.dueNanos(1, START + 20_400_000));
    }

    @Test
    void aHighRateIsOfferedInChunksOfAQuarterMillisecond() {
        LoadPacer pacer = new LoadPacer(400_000, START);
        assertEquals(0, pacer.nextChunk(0, 0, START + 100_000));
        assertEquals(100, pacer.nextChunk(0, 0, START + 250_000));
        // A chunk is stamped with the time its first record was due, however late it goes out.
        assertEquals(START + 252_500, pacer.dueNanos(100, START + 900_000));
        assertEquals(LoadPacer.CHUNK_RECORDS_MAX, pacer.nextChunk(100, 0, START + 10_000_000));
    }

    @Test
    void unboundedKeepsABoundedNumberOfRecordsInFlight() {
        LoadPacer pacer = new LoadPacer(0, START);
        assertEquals(LoadPacer.CHUNK_RECORDS_MAX, pacer.nextChunk(5_000, 0, START));
        assertEquals(0, pacer.nextChunk(500_000, LoadPacer.UNBOUNDED_INFLIGHT_RECORDS_MAX, START));
        assertEquals(START + 7, pacer.dueNanos(3, START + 7));
    }
}

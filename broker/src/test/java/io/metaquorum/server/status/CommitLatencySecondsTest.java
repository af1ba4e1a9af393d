package io.metaquorum.server.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The status page's per-second commit latency: buckets by wall-clock second, a window of two minutes. */
class CommitLatencySecondsTest {
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void eachSecondHoldsItsCountMeanAndMaxAndTheCurrentSecondIsLeftOut() {
        CommitLatencySeconds history = new CommitLatencySeconds();
        history.record(T0 + 100, 4);
        history.record(T0 + 900, 8);
        history.record(T0 + 2_500, 1);
        history.record(T0 + 3_001, 50);

        assertEquals(List.of(new CommitLatencySeconds.Second(T0, 2, 6.0, 8),
                new CommitLatencySeconds.Second(T0 + 2_000, 1, 1.0, 1)), history.before(T0 + 3_500));
    }

    @Test
    void aSecondOlderThanTheWindowIsForgottenAndItsBucketReused() {
        CommitLatencySeconds history = new CommitLatencySeconds();
        history.record(T0, 7);
        long later = T0 + CommitLatencySeconds.SECONDS * 1_000L;
        history.record(later, 3);

        assertEquals(List.of(new CommitLatencySeconds.Second(later, 1, 3.0, 3)), history.before(later + 1_000),
                "the same bucket now holds the newer second alone");
        assertEquals(List.of(), new CommitLatencySeconds().before(T0), "nothing recorded");
    }

    @Property(tries = 200)
    void theCountsOfTheWindowAddUpToTheCommitsInIt(@ForAll @Size(max = 300) List<@IntRange(max = 300_000) Integer> atMs,
                                                   @ForAll @IntRange(max = 1_000) int latencyMs) {
        CommitLatencySeconds history = new CommitLatencySeconds();
        List<Integer> sorted = atMs.stream().sorted().toList();
        sorted.forEach(at -> history.record(T0 + at, latencyMs));
        long now = T0 + 300_000;
        long windowStart = (now / 1_000 - CommitLatencySeconds.SECONDS + 1) * 1_000;
        long expected = sorted.stream().filter(at -> T0 + at >= windowStart && T0 + at < now / 1_000 * 1_000).count();

        List<CommitLatencySeconds.Second> seconds = history.before(now);
        assertEquals(expected, seconds.stream().mapToLong(CommitLatencySeconds.Second::count).sum());
        seconds.forEach(second -> assertEquals(latencyMs, second.maxMs()));
    }
}

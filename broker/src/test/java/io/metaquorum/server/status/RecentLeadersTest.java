package io.metaquorum.server.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The leaders the status page lists: one per epoch, the newest {@link RecentLeaders#KEPT}. */
class RecentLeadersTest {
    @Test
    void anEpochIsKeptOnceAndAnOlderOneIsIgnored() {
        RecentLeaders leaders = new RecentLeaders();
        leaders.record(10, 1, 2);
        leaders.record(11, 1, 2);
        leaders.record(12, 3, 1);
        leaders.record(13, 2, 3);

        assertEquals(List.of(new RecentLeaders.Change(10, 1, 2), new RecentLeaders.Change(12, 3, 1)),
                leaders.changes());
    }

    @Test
    void onlyTheNewestAreKept() {
        RecentLeaders leaders = new RecentLeaders();
        for (int epoch = 1; epoch <= RecentLeaders.KEPT + 5; epoch++) {
            leaders.record(epoch * 100L, epoch, epoch % 3 + 1);
        }

        List<RecentLeaders.Change> kept = leaders.changes();
        assertEquals(RecentLeaders.KEPT, kept.size());
        assertEquals(6, kept.get(0).epoch());
        assertEquals(RecentLeaders.KEPT + 5, kept.get(kept.size() - 1).epoch());
    }
}

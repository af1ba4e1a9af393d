package io.metaquorum.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CreateTraceTest {
    @Test
    void aForwardedCreateSplitsIntoTheNetworkBothWaysTheEntryNodeAndTheControllersStages() {
        CreateTrace trace = CreateTrace.parse(5_000, "node=4 handle_us=40 forward_us=3000 reply_us=30 total_us=3100; "
                + "node=1 edge_us=20 queue_us=10 decide_us=300 raft_queue_us=100 replicate_us=1500 load_us=60 "
                + "answer_us=90 reply_us=20 total_us=2200");
        assertTrue(trace.forwarded());
        assertEquals(1, trace.controllerId());
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("client_network", 1_900L);
        expected.put("entry_handle", 40L);
        expected.put("forward_network", 800L);
        expected.put("controller_edge", 20L);
        expected.put("controller_queue", 10L);
        expected.put("controller_decide", 300L);
        expected.put("raft_queue", 100L);
        expected.put("raft_commit", 1_500L);
        expected.put("loader_replay", 60L);
        expected.put("controller_answer", 90L);
        expected.put("controller_reply", 20L);
        expected.put("entry_reply", 30L);
        expected.put("total", 5_000L);
        assertEquals(List.copyOf(expected.entrySet()), List.copyOf(trace.stages().entrySet()));
    }

    @Test
    void aCreateTheCalledControllerRanItselfHasNoForwardStages() {
        CreateTrace trace = CreateTrace.parse(900, "node=2 edge_us=5 queue_us=5 answer_us=50 reply_us=10 total_us=700");
        assertFalse(trace.forwarded());
        assertEquals(List.of("client_network", "controller_edge", "controller_queue", "controller_answer",
                "controller_reply", "total"), List.copyOf(trace.stages().keySet()));
        assertEquals(200L, trace.stages().get("client_network"));
    }

    @Test
    void aMalformedTraceIsRefusedNamingWhatIsWrong() {
        IllegalArgumentException noValue = assertThrows(IllegalArgumentException.class,
                () -> CreateTrace.parse(1, "node=1 queue_us total_us=3"));
        assertTrue(noValue.getMessage().contains("'queue_us'"), noValue.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CreateTrace.parse(1, "node=1 queue_us=x total_us=3"));
        IllegalArgumentException noTotal = assertThrows(IllegalArgumentException.class,
                () -> CreateTrace.parse(1, "node=1 queue_us=2"));
        assertTrue(noTotal.getMessage().contains("without node or total_us"), noTotal.getMessage());
    }

    @Test
    void theBreakdownPrintsEachStagesP50AndP99InMillisecondsInTheOrderTheStagesCome() {
        StageBreakdown breakdown = new StageBreakdown();
        for (int micros = 1_000; micros <= 100_000; micros += 1_000) {
            breakdown.add(CreateTrace.parse(micros + 500, "node=2 replicate_us=" + micros + " total_us=" + micros));
        }
        assertEquals(List.of("create_one_client_network_p50_ms 0.50 ms", "create_one_client_network_p99_ms 0.50 ms",
                "create_one_raft_commit_p50_ms 50.02 ms", "create_one_raft_commit_p99_ms 99.01 ms",
                "create_one_total_p50_ms 50.53 ms", "create_one_total_p99_ms 99.52 ms"), breakdown.lines("create_one"));
        assertTrue(breakdown.summary("creates", "127.0.0.1:1").startsWith("# breakdown of 100 creates sent to "
                + "127.0.0.1:1 (run by controller 2)"), breakdown.summary("creates", "127.0.0.1:1"));
    }
}

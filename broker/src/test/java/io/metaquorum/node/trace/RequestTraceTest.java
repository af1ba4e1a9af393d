package io.metaquorum.node.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.metaquorum.node.trace.RequestTrace.Stage;
import org.junit.jupiter.api.Test;

class RequestTraceTest {
    private final ManualTime time = new ManualTime();

    @Test
    void aCommittedWriteOnTheActiveControllerReportsEveryStageInMicroseconds() {
        RequestTrace trace = RequestTrace.received(time, 1);
        step(Stage.QUEUED, 30, trace);
        step(Stage.RUN_STARTED, 50, trace);
        step(Stage.APPENDED, 400, trace);
        step(Stage.RAFT_ACCEPTED, 120, trace);
        step(Stage.COMMITTED, 2_000, trace);
        step(Stage.LOADED, 70, trace);
        step(Stage.ANSWERED, 90, trace);
        time.advanceMicros(40);
        assertEquals("node=1 edge_us=30 queue_us=50 decide_us=400 raft_queue_us=120 replicate_us=2000 load_us=70"
                + " answer_us=90 reply_us=40 total_us=2800", trace.describe());
    }

    @Test
    void aForwardingNodeReportsItsOwnStagesThenTheControllers() {
        RequestTrace trace = RequestTrace.received(time, 4);
        step(Stage.FORWARDED, 25, trace);
        trace.addRemoteHop("node=1 queue_us=3 total_us=900");
        step(Stage.FORWARD_ANSWERED, 1_500, trace);
        step(Stage.ANSWERED, 5, trace);
        time.advanceMicros(10);
        assertEquals("node=4 handle_us=25 forward_us=1500 reply_us=15 total_us=1540; node=1 queue_us=3 total_us=900",
                trace.describe());
    }

    @Test
    void aWriteThatAppendsNothingIsAnsweredFromItsTurnAndAStageIsKeptTheFirstTimeItIsMarked() {
        RequestTrace trace = RequestTrace.received(time, 1);
        step(Stage.QUEUED, 10, trace);
        step(Stage.RUN_STARTED, 10, trace);
        step(Stage.ANSWERED, 200, trace);
        time.advanceMicros(500);
        trace.mark(Stage.QUEUED);
        assertEquals("node=1 edge_us=10 queue_us=10 answer_us=200 reply_us=500 total_us=720", trace.describe());
    }

    @Test
    void offMarksNothingAndDescribesNothing() {
        RequestTrace.OFF.mark(Stage.QUEUED);
        RequestTrace.OFF.addRemoteHop("node=1 total_us=1");
        assertFalse(RequestTrace.OFF.isOn());
        assertEquals("", RequestTrace.OFF.describe());
    }

    private void step(Stage stage, long micros, RequestTrace trace) {
        time.advanceMicros(micros);
        trace.mark(stage);
    }
}

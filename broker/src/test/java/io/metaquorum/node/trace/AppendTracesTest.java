package io.metaquorum.node.trace;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.node.trace.RequestTrace.Stage;
import org.junit.jupiter.api.Test;

class AppendTracesTest {
    private final ManualTime time = new ManualTime();
    private final AppendTraces traces = new AppendTraces();

    @Test
    void theAppendsOfATracedTurnAreMarkedCommittedAndLoadedOnceRaftPassesTheirLastOffset() {
        RequestTrace trace = RequestTrace.received(time, 1);
        traces.begin(trace);
        assertSame(trace, traces.appended(41));
        traces.end();
        trace.mark(Stage.RAFT_ACCEPTED);
        time.advanceMicros(100);
        traces.committed(40);
        traces.loaded(40);
        assertFalse(trace.describe().contains("replicate_us"), "offset 41 is not committed yet: " + trace.describe());
        traces.committed(45);
        time.advanceMicros(20);
        traces.loaded(45);
        assertTrue(trace.describe().contains("replicate_us=100 load_us=20"), trace.describe());
    }

    @Test
    void anUntracedTurnRegistersNothing() {
        assertSame(RequestTrace.OFF, traces.appended(7));
        traces.committed(7);
        traces.loaded(7);
        RequestTrace later = RequestTrace.received(time, 1);
        traces.begin(later);
        traces.appended(9);
        traces.end();
        assertSame(RequestTrace.OFF, traces.appended(10), "the traced turn ended");
    }

    @Test
    void aTracedTurnCannotBeginInsideAnother() {
        traces.begin(RequestTrace.received(time, 1));
        assertThrows(InvariantViolation.class, () -> traces.begin(RequestTrace.received(time, 1)));
    }

    @Test
    void marksAreIgnoredForStagesAlreadyMarked() {
        RequestTrace trace = RequestTrace.received(time, 1);
        traces.begin(trace);
        traces.appended(3).mark(Stage.RAFT_ACCEPTED);
        traces.end();
        time.advanceMicros(50);
        traces.committed(3);
        time.advanceMicros(50);
        trace.mark(Stage.COMMITTED);
        traces.loaded(3);
        assertTrue(trace.describe().contains("replicate_us=50 load_us=50"), trace.describe());
    }
}

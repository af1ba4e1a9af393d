package io.metaquorum.sim.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.core.RaftStatus;
import io.metaquorum.raft.core.RoleName;
import io.metaquorum.sim.BrokenVariant;
import io.metaquorum.sim.Simulation;
import io.metaquorum.sim.SimulationOptions;
import io.metaquorum.sim.SimulationResult;
import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class SimTimelineTest {
    private static RaftStatus status(int node, RoleName role, int epoch, long hw) {
        return new RaftStatus(node, role, epoch, -1, -1, hw, 0, hw, hw, hw);
    }

    @Test
    void theRecorderKeepsOneSegmentPerRoleAndEpochAndATickPerCommit() {
        TimelineRecorder recorder = new TimelineRecorder(new int[] {1, 2}, new boolean[] {true, false});
        recorder.observe(0, status(1, RoleName.UNATTACHED, 0, 0), 0);
        recorder.observe(0, status(1, RoleName.CANDIDATE, 1, 0), 100);
        recorder.observe(0, status(1, RoleName.LEADER, 1, 0), 150);
        recorder.observe(0, status(1, RoleName.LEADER, 1, 3), 160);
        recorder.observe(0, status(1, RoleName.LEADER, 1, 3), 170);
        recorder.observe(0, null, 400);
        recorder.observe(1, status(2, RoleName.FOLLOWER, 1, 3), 200);
        recorder.onFault("partition: isolate 1", -1, 300, 350);
        Timeline timeline = recorder.finish("test", 500);
        Timeline.NodeTrack first = timeline.nodes().get(0);
        assertEquals(4, first.segments().size());
        assertEquals(new Timeline.Segment(150, 400, "LEADER", 1), first.segments().get(2));
        assertEquals(new Timeline.Segment(400, 500, "DOWN", 1), first.segments().get(3));
        assertEquals(1, timeline.ticks().size());
        assertEquals(1, timeline.bands().size());
    }

    @Test
    void aRunIsDrawnAsOneSelfContainedPage() {
        SimulationOptions options = new SimulationOptions(4, 3000, EnumSet.noneOf(FaultKind.class), false, 3, 1,
                BrokenVariant.NONE, true);
        SimulationResult result = Simulation.run(options);
        String html = TimelineHtml.render(result.timeline(), result);
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.contains("<svg"));
        assertTrue(html.contains("node 1 voter") && html.contains("node 4 obs."));
        assertTrue(html.contains(result.summaryLine()));
        assertTrue(html.contains("heal: liveness phase"));
        assertTrue(!html.contains("<script") && !html.contains("src=") && !html.contains("href="),
                "no scripts or external resources");
    }

    @Test
    void textIsEscaped() {
        assertEquals("a &lt;b&gt; &amp; &#39;c&#39;", TimelineHtml.escape("a <b> & 'c'"));
    }
}

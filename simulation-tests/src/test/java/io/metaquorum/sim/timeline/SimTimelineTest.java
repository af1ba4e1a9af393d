package io.metaquorum.sim.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import io.metaquorum.sim.BrokenVariant;
import io.metaquorum.sim.Simulation;
import io.metaquorum.sim.SimulationOptions;
import io.metaquorum.sim.SimulationResult;
import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;
import java.util.List;
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
        String html = TimelineHtml.render(result.timeline(), result.timelineHeader());
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.contains("<svg"));
        assertTrue(html.contains("node 1 voter") && html.contains("node 4 obs."));
        assertTrue(html.contains(result.summaryLine()));
        assertTrue(html.contains("heal: liveness phase"));
        assertTrue(!html.contains("<script") && !html.contains("src=") && !html.contains("href="),
                "no scripts or external resources");
    }

    /** Every certificate that went bad is drawn as a band under its node's row, from breaking to fixing. */
    @Test
    void eachBadCertificateIsABandUnderItsNode() {
        SimulationOptions options = new SimulationOptions(2, 20_000, EnumSet.of(FaultKind.BAD_CERTIFICATE), false, 3,
                2, BrokenVariant.NONE, true);
        SimulationResult result = Simulation.run(options);
        assertTrue(result.passed(), result::describe);
        List<Timeline.Band> bands = result.timeline().bands().stream()
                .filter(band -> band.label().equals("bad-certificate")).toList();
        assertTrue(result.stats().badCertificates() > 0, "the fault fired");
        assertEquals(result.stats().badCertificates(), bands.size(), "one band per bad certificate");
        for (Timeline.Band band : bands) {
            assertTrue(band.nodeId() >= 1 && band.startMs() < band.endMs(), band.toString());
        }
        assertTrue(TimelineHtml.render(result.timeline(), result.timelineHeader())
                .contains("<title>bad-certificate, "));
    }

    @Test
    void aSystemRunHasARowPerBrokerAndAMarkPerAdminCall() {
        SimulationOptions options = SimulationOptions.systemDefaults(1).withEvents(8_000).withTimeline(true);
        SimulationResult result = Simulation.run(options);
        assertTrue(result.passed(), result.summaryLine());
        Timeline timeline = result.timeline();
        assertEquals(List.of(4, 5, 6), timeline.brokers().stream().map(Timeline.BrokerTrack::nodeId).toList());
        for (Timeline.BrokerTrack broker : timeline.brokers()) {
            List<String> states = broker.states().stream().map(Timeline.Period::state).toList();
            assertTrue(states.containsAll(List.of("REGISTERING", "RECOVERY", "RUNNING")), states.toString());
            List<String> registration = broker.registration().stream().map(Timeline.Period::state).toList();
            assertEquals("UNREGISTERED", registration.get(0));
            assertTrue(registration.containsAll(List.of("FENCED", "UNFENCED")), registration.toString());
            assertContiguous(broker.states(), timeline.endMs());
            assertContiguous(broker.registration(), timeline.endMs());
        }
        assertTrue(result.system().adminCalls() > 0, "the run finished admin calls");
        assertEquals(result.system().adminCalls(), timeline.admin().size(), "one mark per finished call");
        for (Timeline.AdminMark mark : timeline.admin()) {
            assertTrue(List.of("ok", "error", "unknown").contains(mark.outcome()), mark.toString());
            assertTrue(mark.endMs() >= mark.startMs() && mark.items() > 0, mark.toString());
        }
        String html = TimelineHtml.render(timeline, result.timelineHeader());
        assertEquals(timeline.admin().size(), count(html, "<title>client "));
        assertTrue(html.contains("broker 4") && html.contains("committed image: FENCED") && html.contains("admin calls"));
        Timeline again = Simulation.run(options).timeline();
        assertEquals(timeline, again, "same seed, same timeline");
    }

    @Test
    void aRaftOnlyRunHasNoSystemRows() {
        SimulationOptions options = new SimulationOptions(4, 2000, EnumSet.noneOf(FaultKind.class), false, 3, 1,
                BrokenVariant.NONE, true);
        SimulationResult result = Simulation.run(options);
        assertTrue(result.timeline().brokers().isEmpty() && result.timeline().admin().isEmpty());
        assertTrue(!TimelineHtml.render(result.timeline(), result.timelineHeader()).contains("admin calls"));
    }

    private static void assertContiguous(List<Timeline.Period> periods, long endMs) {
        for (int i = 1; i < periods.size(); i++) {
            assertEquals(periods.get(i - 1).endMs(), periods.get(i).startMs(), periods.toString());
            assertTrue(!periods.get(i - 1).state().equals(periods.get(i).state()), periods.toString());
        }
        assertEquals(endMs, periods.get(periods.size() - 1).endMs());
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void textIsEscaped() {
        assertEquals("a &lt;b&gt; &amp; &#39;c&#39;", TimelineHtml.escape("a <b> & 'c'"));
    }
}

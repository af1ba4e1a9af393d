package io.metaquorum.sim.timeline;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.sim.workload.FaultListener;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects a {@link Timeline} while a run goes: fed every node's status after every event,
 * it keeps one segment per (role, epoch) period, a tick per leader high-watermark move and
 * a band per fault ({@link BrokerTimeline} the system mode's rows). Bounded: beyond {@link #TICKS_MAX} ticks, only every other is kept.
 */
public final class TimelineRecorder implements FaultListener {
    static final int TICKS_MAX = 20_000;
    private static final String DOWN = "DOWN";

    private final int[] nodeIds;
    private final boolean[] voters;
    private final List<List<Timeline.Segment>> segments = new ArrayList<>();
    private final String[] currentRole;
    private final int[] currentEpoch;
    private final long[] currentStartMs;
    private final long[] lastTickHw;
    private final List<Timeline.Band> bands = new ArrayList<>();
    private List<Timeline.Tick> ticks = new ArrayList<>();
    private int tickStride = 1;
    private int tickSkip;
    private long healedAtMs = -1;
    private final BrokerTimeline system = new BrokerTimeline();

    public TimelineRecorder(int[] nodeIds, boolean[] voters) {
        this.nodeIds = nodeIds.clone();
        this.voters = voters.clone();
        int n = nodeIds.length;
        currentRole = new String[n];
        currentEpoch = new int[n];
        currentStartMs = new long[n];
        lastTickHw = new long[n];
        for (int i = 0; i < n; i++) {
            segments.add(new ArrayList<>());
            currentRole[i] = DOWN;
        }
    }

    /** {@code index} is the node's position; {@code status} null while it is down. */
    public void observe(int index, RaftStatus status, long nowMs) {
        String role = status == null ? DOWN : status.role().name();
        int epoch = status == null ? currentEpoch[index] : status.epoch();
        if (!role.equals(currentRole[index]) || epoch != currentEpoch[index]) {
            close(index, nowMs);
            currentRole[index] = role;
            currentEpoch[index] = epoch;
            currentStartMs[index] = nowMs;
        }
        if (status != null && status.isLeader() && status.highWatermark() > lastTickHw[index]) {
            lastTickHw[index] = status.highWatermark();
            addTick(new Timeline.Tick(nowMs, nodeIds[index], status.highWatermark()));
        }
    }

    /** Where system mode records its brokers and admin calls. */
    public BrokerTimeline system() {
        return system;
    }

    public void markHealed(long nowMs) {
        healedAtMs = nowMs;
    }

    @Override
    public void onFault(String label, int nodeId, long startMs, long endMs) {
        bands.add(new Timeline.Band(label, nodeId, startMs, endMs));
    }

    public Timeline finish(String title, long endMs) {
        List<Timeline.NodeTrack> tracks = new ArrayList<>();
        for (int i = 0; i < nodeIds.length; i++) {
            close(i, endMs);
            tracks.add(new Timeline.NodeTrack(nodeIds[i], voters[i], List.copyOf(segments.get(i))));
        }
        return new Timeline(title, endMs, healedAtMs, tracks, List.copyOf(bands), List.copyOf(ticks),
                system.finishBrokers(endMs), system.finishAdmin());
    }

    private void close(int index, long nowMs) {
        if (nowMs > currentStartMs[index]) {
            segments.get(index).add(new Timeline.Segment(currentStartMs[index], nowMs, currentRole[index],
                    currentEpoch[index]));
        }
        currentStartMs[index] = nowMs;
    }

    private void addTick(Timeline.Tick tick) {
        if (++tickSkip < tickStride) {
            return;
        }
        tickSkip = 0;
        ticks.add(tick);
        if (ticks.size() >= TICKS_MAX) {
            List<Timeline.Tick> halved = new ArrayList<>(TICKS_MAX / 2 + 1);
            for (int i = 0; i < ticks.size(); i += 2) {
                halved.add(ticks.get(i));
            }
            ticks = halved;
            tickStride *= 2;
        }
    }
}

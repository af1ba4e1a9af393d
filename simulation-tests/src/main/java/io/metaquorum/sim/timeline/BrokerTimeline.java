package io.metaquorum.sim.timeline;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The system-mode part of a {@link Timeline} while a run goes: per broker, a period per
 * lifecycle state of its process and per registration state in the committed image, and a
 * mark per finished admin call. Fed only with what changed by the caller (or, for the
 * periods, the same state again, which extends the period). Bounded: beyond
 * {@link #ADMIN_MAX} marks, later calls are counted, not drawn.
 */
public final class BrokerTimeline {
    public static final String DOWN = "DOWN";
    public static final String UNREGISTERED = "UNREGISTERED";
    public static final String FENCED = "FENCED";
    public static final String UNFENCED = "UNFENCED";
    static final int ADMIN_MAX = 20_000;

    private final TreeMap<Integer, Track> tracks = new TreeMap<>();
    private final List<Timeline.AdminMark> admin = new ArrayList<>();
    private long adminDropped;

    /** {@code state} the process's lifecycle state or {@link #DOWN}; {@code registration} as the committed image says. */
    public void observeBroker(int nodeId, String state, String registration, long nowMs) {
        Track track = tracks.computeIfAbsent(nodeId, id -> new Track());
        track.states.move(state, nowMs);
        track.registration.move(registration, nowMs);
    }

    public void onAdminCall(Timeline.AdminMark mark) {
        if (admin.size() < ADMIN_MAX) {
            admin.add(mark);
        } else {
            adminDropped++;
        }
    }

    /** Calls finished beyond {@link #ADMIN_MAX}, not drawn. */
    public long adminDropped() {
        return adminDropped;
    }

    List<Timeline.BrokerTrack> finishBrokers(long endMs) {
        List<Timeline.BrokerTrack> result = new ArrayList<>();
        tracks.forEach((id, track) -> result.add(new Timeline.BrokerTrack(id, track.states.finish(endMs),
                track.registration.finish(endMs))));
        return result;
    }

    List<Timeline.AdminMark> finishAdmin() {
        return List.copyOf(admin);
    }

    private static final class Track {
        final Periods states = new Periods();
        final Periods registration = new Periods();
    }

    /** Consecutive periods of one label each; an empty period (no time passed) is not kept. */
    private static final class Periods {
        private final List<Timeline.Period> closed = new ArrayList<>();
        private String current;
        private long sinceMs;

        void move(String state, long nowMs) {
            if (state.equals(current)) {
                return;
            }
            close(nowMs);
            current = state;
            sinceMs = nowMs;
        }

        private void close(long nowMs) {
            if (current != null && nowMs > sinceMs) {
                closed.add(new Timeline.Period(sinceMs, nowMs, current));
            }
        }

        List<Timeline.Period> finish(long endMs) {
            close(endMs);
            current = null;
            return List.copyOf(closed);
        }
    }
}

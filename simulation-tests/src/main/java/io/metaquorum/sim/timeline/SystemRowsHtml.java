package io.metaquorum.sim.timeline;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The system-mode rows of a {@link TimelineHtml} page: per broker its process's lifecycle
 * state (upper bar) and its registration in the committed image (lower strip: fenced red,
 * unfenced green, unregistered grey), then one row of admin calls, a lane per client, each
 * call a mark from its start to its end coloured by outcome (hover: kind, outcome, latency).
 */
final class SystemRowsHtml {
    static final Map<String, String> STATE_COLORS = colors("REGISTERING", "#f0a030", "RECOVERY", "#f4d35e",
            "RUNNING", "#2e9d4f", "PENDING_CONTROLLED_SHUTDOWN", "#a36bd1", "SHUT_DOWN", "#666666");
    static final Map<String, String> REGISTRATION_COLORS = colors(BrokerTimeline.UNREGISTERED, "#b8b8b8",
            BrokerTimeline.FENCED, "#c0392b", BrokerTimeline.UNFENCED, "#5b8fd6");
    static final Map<String, String> OUTCOME_COLORS = colors("ok", "#2e9d4f", "error", "#e67e22",
            "unknown", "#8e44ad");

    private SystemRowsHtml() {
    }

    /** How many rows {@link #draw} takes. */
    static int rows(Timeline timeline) {
        return timeline.brokers().size() + (timeline.admin().isEmpty() && timeline.brokers().isEmpty() ? 0 : 1);
    }

    /** Draws the rows from {@code top}, each {@code row} pixels high. */
    static void draw(StringBuilder svg, Timeline timeline, TimelineHtml.Scale scale, int top, int row) {
        int y = top;
        for (Timeline.BrokerTrack track : timeline.brokers()) {
            svg.append(String.format(Locale.ROOT, "<text x='4' y='%d'>broker %d</text>%n", y + row / 2 + 4,
                    track.nodeId()));
            drawPeriods(svg, track, track.states(), scale, y + 4, row - 16, "state", STATE_COLORS);
            drawPeriods(svg, track, track.registration(), scale, y + row - 11, 6, "committed image:",
                    REGISTRATION_COLORS);
            y += row;
        }
        if (rows(timeline) > timeline.brokers().size()) {
            drawAdmin(svg, timeline, scale, y, row);
        }
    }

    private static void drawPeriods(StringBuilder svg, Timeline.BrokerTrack track, java.util.List<Timeline.Period>
            periods, TimelineHtml.Scale scale, int y, int height, String what, Map<String, String> colors) {
        for (Timeline.Period period : periods) {
            double x = scale.x(period.startMs());
            double width = Math.max(0.5, scale.x(period.endMs()) - x);
            String fill = period.state().equals(BrokerTimeline.DOWN) ? "url(#down)"
                    : colors.getOrDefault(period.state(), "#888");
            svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'>"
                    + "<title>broker %d %s %s, %.3fs-%.3fs</title></rect>%n", x, y, width, height, fill,
                    track.nodeId(), what, period.state(), period.startMs() / 1000.0, period.endMs() / 1000.0));
        }
    }

    private static void drawAdmin(StringBuilder svg, Timeline timeline, TimelineHtml.Scale scale, int y, int row) {
        svg.append(String.format(Locale.ROOT, "<text x='4' y='%d'>admin calls</text>%n", y + row / 2 + 4));
        int lanes = 1;
        for (Timeline.AdminMark mark : timeline.admin()) {
            lanes = Math.max(lanes, mark.client() + 1);
        }
        int lane = Math.max(3, (row - 6) / lanes);
        for (Timeline.AdminMark mark : timeline.admin()) {
            double x = scale.x(mark.startMs());
            double width = Math.max(1.5, scale.x(mark.endMs()) - x);
            svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'>"
                    + "<title>client %d %s (%d items) %s, latency %d ms, %.3fs-%.3fs</title></rect>%n", x,
                    y + 3 + lane * mark.client(), width, lane - 1, OUTCOME_COLORS.getOrDefault(mark.outcome(), "#888"),
                    mark.client(), mark.kind(), mark.items(), mark.outcome(), mark.endMs() - mark.startMs(),
                    mark.startMs() / 1000.0, mark.endMs() / 1000.0));
        }
    }

    /** A legend line for the system rows at {@code y}; nothing when the run has none. */
    static void drawLegend(StringBuilder svg, Timeline timeline, int left, int y) {
        if (rows(timeline) == 0) {
            return;
        }
        int x = left;
        for (Map<String, String> colors : java.util.List.of(STATE_COLORS, REGISTRATION_COLORS, OUTCOME_COLORS)) {
            for (Map.Entry<String, String> entry : colors.entrySet()) {
                svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='14' height='12' fill='%s'/>"
                        + "<text x='%d' y='%d'>%s</text>%n", x, y, entry.getValue(), x + 18, y + 10,
                        entry.getKey().toLowerCase(Locale.ROOT)));
                x += 18 + 8 * entry.getKey().length() + 12;
            }
            x += 20;
        }
    }

    private static Map<String, String> colors(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}

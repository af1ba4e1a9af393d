package io.metaquorum.sim.timeline;

import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link Timeline} as one self-contained HTML page with an inline SVG: one row
 * per node with its role and epoch over simulated time (hover for details), the network's
 * partitions as bands across all rows, each node's stops and instant faults under its row,
 * the leaders' commits as ticks, and the moment healing began. No scripts, no external
 * resources: open the file in any browser. System mode adds its broker and admin rows
 * ({@link SystemRowsHtml}).
 */
public final class TimelineHtml {
    private static final int LEFT = 110;
    private static final int PLOT_WIDTH = 1400;
    private static final int ROW = 34;
    private static final int TOP = 70;
    private static final Map<String, String> ROLE_COLORS = Map.of(
            "LEADER", "#2e9d4f", "FOLLOWER", "#5b8fd6", "CANDIDATE", "#f0a030", "PROSPECTIVE", "#f4d35e",
            "UNATTACHED", "#b8b8b8", "RESIGNED", "#a36bd1", "DOWN", "#ffffff");

    private TimelineHtml() {
    }

    public static String render(Timeline timeline, RunHeader result) {
        int rows = timeline.nodes().size();
        int systemRows = SystemRowsHtml.rows(timeline);
        int height = TOP + ROW * (rows + systemRows + 2) + 112;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d'"
                + " font-family='monospace' font-size='11'>%n", LEFT + PLOT_WIDTH + 30, height));
        svg.append("<defs><pattern id='down' width='6' height='6' patternUnits='userSpaceOnUse'>"
                + "<path d='M0,6 L6,0' stroke='#999' stroke-width='1'/></pattern></defs>\n");
        Scale scale = new Scale(Math.max(1, timeline.endMs()));
        drawAxis(svg, scale, rows + systemRows);
        drawCommits(svg, timeline, scale);
        for (int i = 0; i < rows; i++) {
            drawNode(svg, timeline.nodes().get(i), TOP + ROW * (i + 1), scale);
        }
        drawBands(svg, timeline, scale, rows);
        SystemRowsHtml.draw(svg, timeline, scale, TOP + ROW * (rows + 1), ROW);
        if (timeline.healedAtMs() >= 0) {
            double x = scale.x(timeline.healedAtMs());
            svg.append(String.format(Locale.ROOT, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#000'"
                    + " stroke-dasharray='6,3'/><text x='%.1f' y='%d'>heal: liveness phase</text>%n",
                    x, TOP - 10, x, TOP + ROW * (rows + systemRows + 1), x + 4, TOP - 12));
        }
        drawLegend(svg, TOP + ROW * (rows + systemRows + 1) + 30);
        SystemRowsHtml.drawLegend(svg, timeline, LEFT, TOP + ROW * (rows + systemRows + 1) + 74);
        svg.append("</svg>\n");
        return page(timeline, result, svg.toString());
    }

    private static String page(Timeline timeline, RunHeader result, String svg) {
        String verdict = result.verdict();
        return "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>mq-simulate seed "
                + result.seed() + "</title>\n<style>body{font-family:monospace;margin:16px}"
                + " .fail{color:#b00020} svg{border:1px solid #ddd}</style></head><body>\n"
                + "<h2>" + escape(timeline.title()) + "</h2>\n<p>" + escape(result.summaryLine()) + " &mdash; <span class='"
                + (result.passed() ? "" : "fail") + "'>" + escape(verdict) + "</span></p>\n<p>"
                + escape(result.profile()) + "</p>\n" + svg + "</body></html>\n";
    }

    private static void drawAxis(StringBuilder svg, Scale scale, int rows) {
        long step = niceStep(scale.endMs);
        int bottom = TOP + ROW * (rows + 1);
        for (long t = 0; t <= scale.endMs; t += step) {
            double x = scale.x(t);
            svg.append(String.format(Locale.ROOT, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#eee'/>"
                    + "<text x='%.1f' y='%d' fill='#666'>%ss</text>%n", x, TOP, x, bottom, x + 2, bottom + 14,
                    formatSeconds(t)));
        }
    }

    private static void drawCommits(StringBuilder svg, Timeline timeline, Scale scale) {
        svg.append(String.format(Locale.ROOT, "<text x='4' y='%d'>commits</text>%n", TOP + ROW / 2 + 4));
        for (Timeline.Tick tick : timeline.ticks()) {
            double x = scale.x(tick.timeMs());
            svg.append(String.format(Locale.ROOT, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#2e9d4f'>"
                    + "<title>%.3fs leader %d high watermark %d</title></line>%n", x, TOP + 6, x, TOP + ROW - 6,
                    tick.timeMs() / 1000.0, tick.nodeId(), tick.highWatermark()));
        }
    }

    private static void drawNode(StringBuilder svg, Timeline.NodeTrack track, int y, Scale scale) {
        svg.append(String.format(Locale.ROOT, "<text x='4' y='%d'>node %d %s</text>%n", y + ROW / 2 + 4,
                track.nodeId(), track.voter() ? "voter" : "obs."));
        for (Timeline.Segment segment : track.segments()) {
            double x = scale.x(segment.startMs());
            double width = Math.max(0.5, scale.x(segment.endMs()) - x);
            boolean down = segment.role().equals("DOWN");
            String fill = down ? "url(#down)" : ROLE_COLORS.getOrDefault(segment.role(), "#888");
            svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'>"
                    + "<title>node %d %s epoch %d, %.3fs-%.3fs</title></rect>%n", x, y + 4, width, ROW - 14, fill,
                    track.nodeId(), segment.role(), segment.epoch(), segment.startMs() / 1000.0,
                    segment.endMs() / 1000.0));
            if (!down && width > 8 + 7 * Integer.toString(segment.epoch()).length()) {
                svg.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' fill='#fff'>%d</text>%n", x + 3,
                        y + ROW / 2 + 2, segment.epoch()));
            }
        }
    }

    private static void drawBands(StringBuilder svg, Timeline timeline, Scale scale, int rows) {
        for (Timeline.Band band : timeline.bands()) {
            double x = scale.x(band.startMs());
            double width = Math.max(2, scale.x(band.endMs()) - x);
            String tip = String.format(Locale.ROOT, "<title>%s, %.3fs-%.3fs</title>", escape(band.label()),
                    band.startMs() / 1000.0, band.endMs() / 1000.0);
            if (band.nodeId() < 0) {
                svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#e4572e'"
                        + " fill-opacity='0.13' stroke='#e4572e' stroke-opacity='0.4'>%s</rect>%n", x, TOP + ROW,
                        width, ROW * rows, tip));
                continue;
            }
            int row = rowOf(timeline, band.nodeId());
            int y = TOP + ROW * (row + 1) + ROW - 9;
            svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='5' fill='#c0392b'>"
                    + "%s</rect>%n", x, y, width, tip));
        }
    }

    private static void drawLegend(StringBuilder svg, int y) {
        int x = LEFT;
        for (String role : new String[] {"LEADER", "FOLLOWER", "CANDIDATE", "PROSPECTIVE", "UNATTACHED", "RESIGNED"}) {
            svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='14' height='12' fill='%s'/>"
                    + "<text x='%d' y='%d'>%s</text>%n", x, y, ROLE_COLORS.get(role), x + 18, y + 10,
                    role.toLowerCase(Locale.ROOT)));
            x += 130;
        }
        svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='14' height='12' fill='url(#down)'"
                + " stroke='#999'/><text x='%d' y='%d'>down</text>%n", x, y, x + 18, y + 10));
        y += 22;
        svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='14' height='12' fill='#e4572e'"
                + " fill-opacity='0.3'/><text x='%d' y='%d'>partition (hover for shape)</text>"
                + "<rect x='%d' y='%d' width='14' height='5' fill='#c0392b'/><text x='%d' y='%d'>node fault:"
                + " crash, shutdown, wipe, io-error, resign, clock jump, pause, black-hole, bad-certificate</text>"
                + "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#2e9d4f'/><text x='%d' y='%d'>commit</text>%n",
                LEFT, y, LEFT + 18, y + 10, LEFT + 260, y + 4, LEFT + 278, y + 10, LEFT + 960, y, LEFT + 960, y + 12,
                LEFT + 966, y + 10));
    }

    private static int rowOf(Timeline timeline, int nodeId) {
        for (int i = 0; i < timeline.nodes().size(); i++) {
            if (timeline.nodes().get(i).nodeId() == nodeId) {
                return i;
            }
        }
        return 0;
    }

    static long niceStep(long endMs) {
        long[] steps = {100, 250, 500, 1000, 2000, 5000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000};
        for (long step : steps) {
            if (endMs / step <= 25) {
                return step;
            }
        }
        return Math.max(1, endMs / 20);
    }

    private static String formatSeconds(long ms) {
        return ms % 1000 == 0 ? Long.toString(ms / 1000) : String.format(Locale.ROOT, "%.2f", ms / 1000.0);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;")
                .replace("\"", "&quot;");
    }

    /** Simulated milliseconds to pixels. */
    record Scale(long endMs) {
        double x(long ms) {
            return LEFT + (double) ms * PLOT_WIDTH / endMs;
        }
    }
}

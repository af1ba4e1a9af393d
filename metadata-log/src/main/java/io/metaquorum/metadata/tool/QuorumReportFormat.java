package io.metaquorum.metadata.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The three printed forms of a {@link QuorumReport}: Kafka's
 * {@code kafka-metadata-quorum.sh describe --status} text, its {@code --replication} table,
 * and the one-object JSON of docs/commands.md. Pure functions of the report.
 */
public final class QuorumReportFormat {
    private static final String[] REPLICATION_HEADER =
        {"NodeId", "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status"};

    private QuorumReportFormat() {
    }

    /** {@code describe --status}: one {@code Name: value} line per figure. */
    public static String status(QuorumReport report) {
        StringBuilder text = new StringBuilder();
        line(text, "ClusterId", report.clusterId());
        line(text, "LeaderId", Integer.toString(report.leaderId()));
        line(text, "LeaderEpoch", Integer.toString(report.leaderEpoch()));
        line(text, "HighWatermark", Long.toString(report.highWatermark()));
        line(text, "MaxFollowerLag", Long.toString(report.maxFollowerLag()));
        line(text, "MaxFollowerLagTimeMs", Long.toString(report.maxFollowerLagTimeMs()));
        line(text, "CurrentVoters", ids(report.voters()));
        line(text, "CurrentObservers", ids(report.observers()));
        line(text, "ObserverLags", observerLags(report));
        report.pendingVoterChange().ifPresent(change -> line(text, "PendingVoterChange", pendingChange(change)));
        return text.toString();
    }

    /** {@code at offset 104: voters [1,2] (removes 3)}: only while the leader's VotersRecord is uncommitted. */
    private static String pendingChange(QuorumReport.PendingChange change) {
        StringJoiner ids = new StringJoiner(",", "[", "]");
        change.voters().forEach(voter -> ids.add(Integer.toString(voter.nodeId())));
        StringJoiner differences = new StringJoiner(", ", " (", ")").setEmptyValue("");
        change.added().forEach(voter -> differences.add("adds " + voter.nodeId()));
        change.removed().forEach(voter -> differences.add("removes " + voter.nodeId()));
        return "at offset " + change.offset() + ": voters " + ids + differences;
    }

    private static void line(StringBuilder text, String name, String value) {
        text.append(String.format("%-24s%s%n", name + ":", value));
    }

    /** {@code [4: lag 0, caught up 30 ms ago, ...]}: each observer's lag in records and time. */
    private static String observerLags(QuorumReport report) {
        StringJoiner lags = new StringJoiner(", ", "[", "]");
        for (QuorumReport.Replica observer : report.observers()) {
            long agoMs = report.agoMs(observer.lastCaughtUpTimestampMs());
            lags.add(observer.nodeId() + ": lag " + report.lag(observer) + ", caught up "
                    + (agoMs < 0 ? "never" : agoMs + " ms ago"));
        }
        return lags.toString();
    }

    private static String ids(List<QuorumReport.Replica> replicas) {
        StringJoiner ids = new StringJoiner(",", "[", "]");
        for (QuorumReport.Replica replica : replicas) {
            ids.add(Integer.toString(replica.nodeId()));
        }
        return ids.toString();
    }

    /**
     * {@code describe --replication}: the leader first, then the other voters, then the
     * observers; timestamps are the leader's clock in epoch milliseconds (-1: never), as Kafka prints them.
     */
    public static String replication(QuorumReport report) {
        List<String[]> rows = new ArrayList<>();
        rows.add(REPLICATION_HEADER);
        for (QuorumReport.Replica voter : report.voters()) {
            if (voter.nodeId() == report.leaderId()) {
                rows.add(row(report, voter, "Leader"));
            }
        }
        for (QuorumReport.Replica voter : report.voters()) {
            if (voter.nodeId() != report.leaderId()) {
                rows.add(row(report, voter, "Follower"));
            }
        }
        for (QuorumReport.Replica observer : report.observers()) {
            rows.add(row(report, observer, "Observer"));
        }
        return table(rows);
    }

    private static String[] row(QuorumReport report, QuorumReport.Replica replica, String status) {
        return new String[] {Integer.toString(replica.nodeId()), Long.toString(replica.logEndOffset()),
            Long.toString(report.lag(replica)), Long.toString(replica.lastFetchTimestampMs()),
            Long.toString(replica.lastCaughtUpTimestampMs()), status};
    }

    private static String table(List<String[]> rows) {
        int[] widths = new int[REPLICATION_HEADER.length];
        for (String[] row : rows) {
            for (int column = 0; column < row.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < row.length; column++) {
                line.append(column == row.length - 1 ? row[column]
                        : String.format("%-" + (widths[column] + 2) + "s", row[column]));
            }
            text.append(line.toString().stripTrailing()).append(System.lineSeparator());
        }
        return text.toString();
    }

    /**
     * The one JSON object of docs/commands.md, on one line; ages in ms computed from {@code now_ms}.
     * Beside docs/commands.md's keys: {@code maxFollowerLag} (records) and {@code maxFollowerLagMs}
     * (since the least recently caught-up follower was caught up; -1: one never was), and each
     * replica's {@code directoryId} last (base64, empty when it has none; KIP-853), and
     * {@code pendingVoterChange} last of all: null, or the leader's uncommitted VotersRecord
     * ({@code offset}, {@code voters}, {@code added}, {@code removed}, each voter a
     * {@code nodeId} and a {@code directoryId}). Keys are only ever added at the end: tools parse
     * this object by position too.
     */
    public static String json(QuorumReport report) {
        return "{\"clusterId\": " + jsonString(report.clusterId())
                + ", \"leaderId\": " + report.leaderId()
                + ", \"leaderEpoch\": " + report.leaderEpoch()
                + ", \"highWatermark\": " + report.highWatermark()
                + ", \"maxFollowerLag\": " + report.maxFollowerLag()
                + ", \"maxFollowerLagMs\": " + report.maxFollowerLagTimeMs()
                + ", \"voters\": " + jsonReplicas(report, report.voters())
                + ", \"observers\": " + jsonReplicas(report, report.observers())
                + ", \"pendingVoterChange\": " + report.pendingVoterChange().map(QuorumReportFormat::jsonChange)
                        .orElse("null") + "}";
    }

    private static String jsonChange(QuorumReport.PendingChange change) {
        return "{\"offset\": " + change.offset()
                + ", \"voters\": " + jsonVoters(change.voters())
                + ", \"added\": " + jsonVoters(change.added())
                + ", \"removed\": " + jsonVoters(change.removed()) + "}";
    }

    private static String jsonVoters(List<QuorumReport.Voter> voters) {
        StringJoiner array = new StringJoiner(", ", "[", "]");
        for (QuorumReport.Voter voter : voters) {
            array.add("{\"nodeId\": " + voter.nodeId()
                    + ", \"directoryId\": " + jsonString(voter.directoryId()) + "}");
        }
        return array.toString();
    }

    private static String jsonReplicas(QuorumReport report, List<QuorumReport.Replica> replicas) {
        StringJoiner array = new StringJoiner(", ", "[", "]");
        for (QuorumReport.Replica replica : replicas) {
            array.add("{\"nodeId\": " + replica.nodeId()
                    + ", \"logEndOffset\": " + replica.logEndOffset()
                    + ", \"lag\": " + report.lag(replica)
                    + ", \"lastFetchMs\": " + report.agoMs(replica.lastFetchTimestampMs())
                    + ", \"lastCaughtUpMs\": " + report.agoMs(replica.lastCaughtUpTimestampMs())
                    + ", \"directoryId\": " + jsonString(replica.directoryId()) + "}");
        }
        return array.toString();
    }

    /** {@code value} as a JSON string. */
    public static String jsonString(String value) {
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}

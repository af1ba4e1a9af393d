package io.metaquorum.server.status;

import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.tool.QuorumReportFormat;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.raft.RaftStatus;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The status page's data ({@code GET /status.json}, docs/metrics.md#status-page): this node and
 * its raft state, the quorum as the leader tracks it, the brokers and counts of this node's
 * image, the leaders it saw, and its commit latency per second while it leads. Built on the
 * page's thread when asked; nothing is kept for it but {@link RecentLeaders} and
 * {@link CommitLatencySeconds}.
 */
public final class StatusReport implements AutoCloseable {
    private final Identity identity;
    private final Supplier<RaftStatus> raft;
    private final Supplier<MetadataImage> image;
    private final LeaderQuorumView quorum;
    private final StatusHistory history;
    private final LongSupplier wallClockMs;
    private final ImageCounts.Cache counts = new ImageCounts.Cache();

    /** Who the node is: id, cluster and the roles it runs. */
    public record Identity(int nodeId, String clusterId, List<String> roles) {
        public Identity {
            roles = List.copyOf(roles);
        }
    }

    /** What the node records for its page while it runs. */
    public record StatusHistory(RecentLeaders leaders, CommitLatencySeconds commitLatency) {
        public static StatusHistory empty() {
            return new StatusHistory(new RecentLeaders(), new CommitLatencySeconds());
        }
    }

    /** {@code raft} may supply null until the node's raft is built; {@code image} is the node's newest. */
    public StatusReport(Identity identity, Supplier<RaftStatus> raft, Supplier<MetadataImage> image,
                        LeaderQuorumView quorum,
                        StatusHistory history, LongSupplier wallClockMs) {
        this.identity = identity;
        this.raft = raft;
        this.image = image;
        this.quorum = quorum;
        this.history = history;
        this.wallClockMs = wallClockMs;
    }

    /** The report as one JSON object; asks the leader, so it may block up to the view's timeout. */
    public String json() {
        long nowMs = wallClockMs.getAsLong();
        RaftStatus status = raft.get();
        MetadataImage image = this.image.get();
        StringBuilder json = new StringBuilder(4096)
                .append("{\"nodeId\": ").append(identity.nodeId())
                .append(", \"clusterId\": ").append(QuorumReportFormat.jsonString(identity.clusterId()))
                .append(", \"roles\": ").append(strings(identity.roles()))
                .append(", \"nowMs\": ").append(nowMs)
                .append(", \"raft\": ").append(raft(status));
        LeaderQuorumView.Answer answer = status == null ? new LeaderQuorumView.Answer(null, "raft is starting")
                : quorum.ask(status.leaderId());
        json.append(", \"quorum\": ").append(answer.report() == null ? "null" : QuorumReportFormat.json(answer.report()))
                .append(", \"quorumProblem\": ")
                .append(answer.problem() == null ? "null" : QuorumReportFormat.jsonString(answer.problem()))
                .append(", \"image\": ").append(image(counts.of(image)))
                .append(", \"brokers\": ").append(brokers(image))
                .append(", \"leaderChanges\": ").append(leaderChanges())
                .append(", \"commitLatency\": ").append(commitLatency(status, nowMs));
        return json.append('}').toString();
    }

    /** Closes the connections to the leader. */
    @Override
    public void close() {
        quorum.close();
    }

    private static String raft(RaftStatus status) {
        if (status == null) {
            return "null";
        }
        return "{\"role\": \"" + status.role() + "\", \"epoch\": " + status.epoch()
                + ", \"leaderId\": " + status.leaderId() + ", \"highWatermark\": " + status.highWatermark()
                + ", \"logEndOffset\": " + status.logEndOffset() + ", \"appliedOffset\": " + status.appliedOffset()
                + "}";
    }

    private static String image(ImageCounts counts) {
        return "{\"offset\": " + counts.offset() + ", \"topics\": " + counts.topics()
                + ", \"partitions\": " + counts.partitions() + ", \"offlinePartitions\": " + counts.offlinePartitions()
                + ", \"activeBrokers\": " + counts.activeBrokers() + ", \"fencedBrokers\": " + counts.fencedBrokers()
                + "}";
    }

    private static String brokers(MetadataImage image) {
        StringJoiner array = new StringJoiner(", ", "[", "]");
        for (BrokerRegistration broker : image.cluster().sortedById()) {
            String endpoint = "";
            if (!broker.endpoints().isEmpty()) {
                BrokerEndpoint first = broker.endpoints().get(0);
                endpoint = first.getHost() + ":" + first.getPort();
            }
            array.add("{\"brokerId\": " + broker.id() + ", \"endpoint\": " + QuorumReportFormat.jsonString(endpoint)
                    + ", \"rack\": " + QuorumReportFormat.jsonString(broker.rack())
                    + ", \"brokerEpoch\": " + broker.epoch()
                    + ", \"state\": \"" + (broker.fenced() ? "fenced" : "unfenced") + "\"}");
        }
        return array.toString();
    }

    private String leaderChanges() {
        StringJoiner array = new StringJoiner(", ", "[", "]");
        for (RecentLeaders.Change change : history.leaders().changes()) {
            array.add("{\"atMs\": " + change.atMs() + ", \"epoch\": " + change.epoch() + ", \"leaderId\": "
                    + change.leaderId() + "}");
        }
        return array.toString();
    }

    /** Commits are timed where they are appended: {@code measuredHere} is true on the leader only. */
    private String commitLatency(RaftStatus status, long nowMs) {
        StringJoiner seconds = new StringJoiner(", ", "[", "]");
        for (CommitLatencySeconds.Second second : history.commitLatency().before(nowMs)) {
            seconds.add("{\"atMs\": " + second.atMs() + ", \"count\": " + second.count() + ", \"meanMs\": "
                    + String.format(Locale.ROOT, "%.3f", second.meanMs()) + ", \"maxMs\": "
                    + second.maxMs() + "}");
        }
        return "{\"measuredHere\": " + (status != null && status.isLeader()) + ", \"windowSeconds\": "
                + CommitLatencySeconds.SECONDS + ", \"seconds\": " + seconds + "}";
    }

    private static String strings(List<String> values) {
        StringJoiner array = new StringJoiner(", ", "[", "]");
        values.forEach(value -> array.add(QuorumReportFormat.jsonString(value)));
        return array.toString();
    }
}

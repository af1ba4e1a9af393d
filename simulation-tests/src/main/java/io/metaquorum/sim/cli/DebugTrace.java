package io.metaquorum.sim.cli;

import com.google.protobuf.Message;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.sim.EventObserver;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.scheduler.ScheduledEvent;
import java.io.PrintStream;

/**
 * {@code --debug-events FROM-TO}: prints the events of one run in that index range, each
 * with every node's status (a paused process marked {@code PAUSED}), and the messages
 * delivered meanwhile. For finding out why a
 * seed fails; the output is as deterministic as the run.
 */
final class DebugTrace implements EventObserver {
    private final PrintStream out;
    private final long from;
    private final long to;
    private long currentIndex;

    DebugTrace(PrintStream out, long from, long to) {
        this.out = out;
        this.from = from;
        this.to = to;
    }

    static DebugTrace parse(PrintStream out, String range) {
        String[] parts = range.split("-", 2);
        long first = Long.parseLong(parts[0].trim());
        long last = parts.length > 1 ? Long.parseLong(parts[1].trim()) : first;
        return new DebugTrace(out, first, last);
    }

    private boolean active() {
        return currentIndex + 1 >= from && currentIndex + 1 <= to;
    }

    @Override
    public void onDeliver(int toNode, RaftMessage message) {
        if (active()) {
            out.println("    deliver to " + toNode + ": " + describe(message));
        }
    }

    @Override
    public void afterEvent(long index, ScheduledEvent event, SimCluster cluster) {
        currentIndex = index;
        if (index < from || index > to) {
            return;
        }
        StringBuilder line = new StringBuilder();
        line.append(String.format("#%d t=%d %s node %d |", index, event.timeMs(), event.kind(), event.nodeId()));
        for (SimNode node : cluster.nodes()) {
            if (!node.isRunning()) {
                line.append(" ").append(node.nodeId()).append(":down");
                continue;
            }
            RaftStatus s = node.status();
            line.append(String.format(" %d:%s e%d L%d v%d hw%d [%d,%d) f%d a%d", s.nodeId(), s.role().name().substring(0, 3),
                    s.epoch(), s.leaderId(), s.votedId(), s.highWatermark(), s.logStartOffset(), s.logEndOffset(),
                    s.flushedEndOffset(), s.appliedOffset()));
            if (node.isPaused()) {
                line.append(" PAUSED");
            }
        }
        out.println(line);
    }

    private static String describe(RaftMessage message) {
        if (message instanceof RaftRequest request) {
            return "request " + request.sourceId() + "->" + request.destinationId() + " #" + request.correlationId()
                    + " " + oneLine(request.payload());
        }
        if (message instanceof RaftResponse response) {
            return "response " + response.sourceId() + "->" + response.destinationId() + " #"
                    + response.correlationId() + " " + oneLine(response.payload());
        }
        return message.toString();
    }

    private static String oneLine(Message payload) {
        String text = payload.getClass().getSimpleName() + " " + payload.toString().replaceAll("\\s+", " ");
        return text.length() > 400 ? text.substring(0, 400) + "..." : text;
    }
}

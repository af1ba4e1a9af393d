package io.metaquorum.raft.core.context;

import com.google.protobuf.Message;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Messages the core has produced but the driver has not taken yet, and the requests it
 * still expects an answer to. Every outbound request ends exactly once: with a response,
 * a transport failure, or an expiry at its deadline (whichever comes first); later
 * duplicates are dropped by {@link #complete}.
 */
public final class Outbox {
    /** An outbound request awaiting its answer; {@code epoch} is the sender's epoch at sending. */
    public record Inflight(int destinationId, Message payload, int epoch, long deadlineMs) {
    }

    private final int localId;
    private final ArrayList<RaftMessage> pending = new ArrayList<>();
    private final TreeMap<Long, Inflight> inflight = new TreeMap<>();
    private long nextCorrelationId;

    public Outbox(int localId) {
        this.localId = localId;
    }

    public long sendRequest(int destinationId, Message payload, int epoch, long deadlineMs) {
        long correlationId = nextCorrelationId++;
        inflight.put(correlationId, new Inflight(destinationId, payload, epoch, deadlineMs));
        pending.add(new RaftRequest(localId, destinationId, correlationId, payload));
        return correlationId;
    }

    public void sendResponse(RaftRequest request, Message payload) {
        pending.add(new RaftResponse(localId, request.sourceId(), request.correlationId(), payload));
    }

    /** The request this answer belongs to, removed; null for an unknown, late or duplicate answer. */
    public Inflight complete(long correlationId, int fromId) {
        Inflight request = inflight.get(correlationId);
        if (request == null || request.destinationId() != fromId) {
            return null;
        }
        inflight.remove(correlationId);
        return request;
    }

    /** Removes and returns the requests whose deadline has passed, as TIMEOUT failures. */
    public List<RequestFailure> expire(long nowMs) {
        List<RequestFailure> expired = new ArrayList<>();
        Iterator<Map.Entry<Long, Inflight>> it = inflight.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Inflight> entry = it.next();
            if (entry.getValue().deadlineMs() <= nowMs) {
                expired.add(new RequestFailure(entry.getValue().destinationId(), entry.getKey(),
                        RequestFailure.Reason.TIMEOUT));
            }
        }
        return expired;
    }

    public long nextDeadlineMs() {
        long next = Long.MAX_VALUE;
        for (Inflight request : inflight.values()) {
            next = Math.min(next, request.deadlineMs());
        }
        return next;
    }

    public List<RaftMessage> take() {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<RaftMessage> taken = new ArrayList<>(pending);
        pending.clear();
        return taken;
    }
}

package io.metaquorum.sim.network;

import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.sim.trace.TraceHash;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;

/**
 * The network between simulated nodes, behaving as the gRPC transport would over TCP.
 *
 * <p>Fault model, per {@link NetworkProfile}: per-message delay (with spikes), loss,
 * duplication and reordering; black-hole links from the {@link LinkTable} (symmetric or one-way
 * partitions) drop messages silently, refused links fail calls fast. Each request opens a
 * {@link Call} that closes once:
 * <ul>
 *   <li>with its first response;</li>
 *   <li>{@code UNREACHABLE} when the callee's process dies with the call open (connection
 *       reset) or is down when the request is sent (connection refused), provided the
 *       reset can travel back to the caller; when the link refuses the call (a firewall
 *       REJECT) or the TLS handshake fails (a bad certificate at either end,
 *       {@link #breakCertificate}); or when {@link #resetConnections} breaks the connection;</li>
 *   <li>{@code TIMEOUT} when nothing closed it within {@code callTimeoutMs} (lost message,
 *       black hole, a callee that never answers, a paused callee).</li>
 * </ul>
 * A paused process (SIGSTOP) needs nothing here: its connections stay open, what reaches it
 * waits in its process's inbox (the socket buffers) until it resumes, and it sends nothing.
 * A response reaches only the process incarnation that sent the request. As with the gRPC
 * transport, the callee sees each request under a correlation id of its own (the call's id,
 * unique for the run), and its answer is matched back to the caller's id, so a restarted
 * caller reusing ids can never receive an answer meant for its previous incarnation. A
 * duplicated request is handled twice (the second answer is dropped: its call is closed); a
 * duplicated response is delivered twice.
 *
 * <p>Deterministic: every choice comes from the one {@link Random} given, open calls are
 * iterated in send order, and the hash map of server-side calls is only looked up.
 */
public final class SimNetwork {
    private final EventScheduler scheduler;
    private final Random random;
    private final TraceHash trace;
    private final NetworkEndpoint[] endpoints;
    private final LinkTable links;
    /** For FIFO links: the last delivery time on each directed link. */
    private final long[][] lastDeliveryMs;
    /** Invariant: holds exactly the open calls, in send order. */
    private final LinkedHashMap<Long, Call> openCalls = new LinkedHashMap<>();
    /** Requests delivered and not yet answered, by call id (the callee's correlation id). */
    private final Map<Long, Call> callsAtServer = new HashMap<>();
    private final NetworkStats stats = new NetworkStats();
    private NetworkProfile profile;
    private DeliveryObserver deliveryObserver = DeliveryObserver.NONE;
    private long nextCallId;
    private boolean deadlineCheckScheduled;

    public SimNetwork(EventScheduler scheduler, Random random, TraceHash trace, int maxNodeId, NetworkProfile profile) {
        this.scheduler = scheduler;
        this.random = random;
        this.trace = trace;
        this.endpoints = new NetworkEndpoint[maxNodeId + 1];
        this.links = new LinkTable(maxNodeId);
        this.lastDeliveryMs = new long[maxNodeId + 1][maxNodeId + 1];
        this.profile = profile;
    }

    public void register(int nodeId, NetworkEndpoint endpoint) {
        endpoints[nodeId] = endpoint;
    }

    public LinkTable links() {
        return links;
    }

    public NetworkProfile profile() {
        return profile;
    }

    public void setProfile(NetworkProfile profile) {
        this.profile = profile;
    }

    public void setDeliveryObserver(DeliveryObserver observer) {
        this.deliveryObserver = observer;
    }

    public NetworkStats stats() {
        return stats;
    }

    public int openCallCount() {
        return openCalls.size();
    }

    /** Takes one outbound message of a running node. */
    public void send(RaftMessage message) {
        if (message instanceof RaftRequest request) {
            sendRequest(request);
        } else if (message instanceof RaftResponse response) {
            sendResponse(response);
        } else {
            throw new IllegalArgumentException("a node cannot send " + message);
        }
    }

    /** The process on {@code nodeId} died: its connections reset. */
    public void onProcessStopped(int nodeId) {
        Iterator<Call> calls = openCalls.values().iterator();
        while (calls.hasNext()) {
            Call call = calls.next();
            if (call.caller == nodeId) {
                call.state = Call.State.CLOSED;
                calls.remove();
                callsAtServer.remove(call.callId);
            } else if (call.callee == nodeId) {
                callsAtServer.remove(call.callId);
                if (links.canSend(nodeId, call.caller)) {
                    call.state = Call.State.CLOSED;
                    calls.remove();
                    scheduleFailure(call, RequestFailure.Reason.UNREACHABLE, sampleDelayMs());
                }
            }
            // A reset that cannot reach the caller leaves the call to its deadline.
        }
    }

    /**
     * A burst of connection resets between {@code a} and {@code b}, both processes healthy: every
     * open call between them fails with {@code UNREACHABLE} at its caller. The links stay open.
     */
    public void resetConnections(int a, int b) {
        resetCalls(call -> (call.caller == a && call.callee == b) || (call.caller == b && call.callee == a));
    }

    /** Fails every open call {@code which} selects with {@code UNREACHABLE} at its caller, in send order. */
    private void resetCalls(Predicate<Call> which) {
        Iterator<Call> calls = openCalls.values().iterator();
        while (calls.hasNext()) {
            Call call = calls.next();
            if (which.test(call)) {
                call.state = Call.State.CLOSED;
                calls.remove();
                callsAtServer.remove(call.callId);
                scheduleFailure(call, RequestFailure.Reason.UNREACHABLE, sampleDelayMs());
            }
        }
    }

    /**
     * The certificate of {@code nodeId} goes bad (the {@code bad-certificate} fault): its open
     * calls reset, as its channels are rebuilt with the new certificate, and from now on every
     * call from or to it fails its TLS handshake, fast, with {@code UNREACHABLE}, as a refused
     * connection does ({@link LinkTable#refuses}). The process itself runs on.
     */
    public void breakCertificate(int nodeId) {
        links.breakCertificate(nodeId);
        resetCalls(call -> call.caller == nodeId || call.callee == nodeId);
    }

    /** A good certificate is back on {@code nodeId} (rotation): new connections from and to it succeed. */
    public void fixCertificate(int nodeId) {
        links.fixCertificate(nodeId);
    }

    private void sendRequest(RaftRequest request) {
        int caller = request.sourceId();
        int callee = request.destinationId();
        NetworkEndpoint to = endpoint(callee);
        boolean calleeUp = to != null && to.isRunning();
        Call call = new Call(nextCallId++, caller, endpoint(caller).incarnation(), callee,
                calleeUp ? to.incarnation() : -1, request.correlationId(), scheduler.nowMs());
        openCalls.put(call.callId, call);
        stats.sent++;
        scheduleDeadlineCheck(call.sentAtMs + profile.callTimeoutMs());
        if (links.refuses(caller, callee)) {
            closeCall(call);
            scheduleFailure(call, RequestFailure.Reason.UNREACHABLE, sampleDelayMs() + sampleDelayMs());
            return;
        }
        if (!calleeUp) {
            refuse(call);
            return;
        }
        transmit(caller, callee, duplicate -> arriveRequest(call, request));
    }

    private void sendResponse(RaftResponse response) {
        int responder = response.sourceId();
        Call call = callsAtServer.remove(response.correlationId());
        if (call == null || !call.isOpen() || call.callee != responder) {
            return;
        }
        stats.sent++;
        RaftResponse toCaller = new RaftResponse(responder, call.caller, call.correlationId, response.payload());
        transmit(responder, call.caller, duplicate -> arriveResponse(call, toCaller, duplicate));
    }

    /** Connection refused: the caller hears of it after a round trip, if both ways are open. */
    private void refuse(Call call) {
        if (links.canSend(call.caller, call.callee) && links.canSend(call.callee, call.caller)) {
            closeCall(call);
            scheduleFailure(call, RequestFailure.Reason.UNREACHABLE, sampleDelayMs() + sampleDelayMs());
        }
    }

    private void transmit(int from, int to, Arrival arrival) {
        if (random.nextDouble() < profile.lossProbability()) {
            stats.lost++;
            return;
        }
        scheduler.schedule(deliveryTimeMs(from, to), EventKind.DELIVER, to, () -> arrival.arrive(false));
        if (random.nextDouble() < profile.duplicateProbability()) {
            stats.duplicated++;
            scheduler.schedule(deliveryTimeMs(from, to), EventKind.DELIVER, to, () -> arrival.arrive(true));
        }
    }

    private void arriveRequest(Call call, RaftRequest request) {
        if (!call.isOpen()) {
            return;
        }
        if (!links.canSend(call.caller, call.callee)) {
            stats.lost++;
            return;
        }
        NetworkEndpoint to = endpoint(call.callee);
        if (!to.isRunning() || to.incarnation() != call.calleeIncarnation) {
            return;
        }
        call.state = Call.State.AT_SERVER;
        callsAtServer.put(call.callId, call);
        deliver(to, new RaftRequest(call.caller, call.callee, call.callId, request.payload()), call.caller, call.callee);
    }

    private void arriveResponse(Call call, RaftResponse response, boolean duplicate) {
        if (!links.canSend(call.callee, call.caller)) {
            stats.lost++;
            return;
        }
        if (call.isOpen()) {
            closeCall(call);
        } else if (!duplicate) {
            return;
        }
        NetworkEndpoint to = endpoint(call.caller);
        if (to.isRunning() && to.incarnation() == call.callerIncarnation) {
            deliver(to, response, response.sourceId(), response.destinationId());
        }
    }

    private void deliver(NetworkEndpoint to, RaftMessage message, int from, int toId) {
        stats.delivered++;
        trace.mix(from);
        trace.mix(toId);
        trace.mix(message.correlationId());
        trace.mix(message instanceof RaftRequest ? 1 : 2);
        trace.mix(payloadBytes(message));
        deliveryObserver.onDeliver(toId, message);
        to.deliver(message);
    }

    private static byte[] payloadBytes(RaftMessage message) {
        if (message instanceof RaftRequest request) {
            return request.payload().toByteArray();
        }
        return ((RaftResponse) message).payload().toByteArray();
    }

    private void scheduleFailure(Call call, RequestFailure.Reason reason, long delayMs) {
        scheduler.scheduleAfter(delayMs, EventKind.DELIVER, call.caller, () -> deliverFailure(call, reason));
    }

    private void deliverFailure(Call call, RequestFailure.Reason reason) {
        NetworkEndpoint to = endpoint(call.caller);
        if (to.isRunning() && to.incarnation() == call.callerIncarnation) {
            if (reason == RequestFailure.Reason.UNREACHABLE) {
                stats.unreachable++;
            } else {
                stats.timedOut++;
            }
            trace.mix(call.caller);
            trace.mix(call.correlationId);
            trace.mix(reason.ordinal() + 3);
            RequestFailure failure = new RequestFailure(call.callee, call.correlationId, reason);
            deliveryObserver.onDeliver(call.caller, failure);
            to.deliver(failure);
        }
    }

    private void closeCall(Call call) {
        call.state = Call.State.CLOSED;
        openCalls.remove(call.callId);
        callsAtServer.remove(call.callId);
    }

    private void scheduleDeadlineCheck(long atMs) {
        if (!deadlineCheckScheduled) {
            deadlineCheckScheduled = true;
            scheduler.schedule(atMs, EventKind.HOUSEKEEPING, -1, this::expireCalls);
        }
    }

    /** Fails every call open longer than the deadline; calls are in send order. */
    private void expireCalls() {
        deadlineCheckScheduled = false;
        long now = scheduler.nowMs();
        Iterator<Call> calls = openCalls.values().iterator();
        while (calls.hasNext()) {
            Call call = calls.next();
            if (call.sentAtMs + profile.callTimeoutMs() > now) {
                scheduleDeadlineCheck(call.sentAtMs + profile.callTimeoutMs());
                return;
            }
            call.state = Call.State.CLOSED;
            calls.remove();
            callsAtServer.remove(call.callId);
            deliverFailure(call, RequestFailure.Reason.TIMEOUT);
        }
    }

    private long deliveryTimeMs(int from, int to) {
        long at = scheduler.nowMs() + sampleDelayMs();
        if (!profile.reorder()) {
            at = Math.max(at, lastDeliveryMs[from][to]);
            lastDeliveryMs[from][to] = at;
        }
        return at;
    }

    private long sampleDelayMs() {
        long delay = profile.minDelayMs();
        if (profile.meanExtraDelayMs() > 0) {
            double extra = -profile.meanExtraDelayMs() * Math.log(1 - random.nextDouble());
            delay += (long) Math.min(extra, 20.0 * profile.meanExtraDelayMs());
        }
        if (profile.spikeProbability() > 0 && random.nextDouble() < profile.spikeProbability()) {
            stats.delaySpikes++;
            delay += random.nextInt(profile.spikeMaxMs() + 1);
        }
        return delay;
    }

    private NetworkEndpoint endpoint(int nodeId) {
        return nodeId >= 0 && nodeId < endpoints.length ? endpoints[nodeId] : null;
    }

    /** What happens when a transmitted message reaches the far end. */
    @FunctionalInterface
    private interface Arrival {
        void arrive(boolean duplicate);
    }
}

package io.metaquorum.raft.transport.grpc;

import com.google.protobuf.Message;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.metaquorum.common.invariant.Invariants;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inbound calls handed to the core and not yet answered, by the correlation id assigned
 * here. A call leaves the table when its answer is sent or when gRPC cancels it (the
 * caller's deadline passed, it went away, or the server is shutting down), so an answer
 * that never comes does not leak.
 *
 * <p>Threading: {@link #register} runs on gRPC server threads, {@link #complete} on the
 * driver thread, cancellation handlers on gRPC threads; the table is a concurrent map and
 * each call is removed exactly once, by whichever comes first.
 *
 * <p>Invariants: {@code size() <= pendingCallsMax}; correlation ids are unique for the life
 * of this object; an answer's payload has the response type of its request.
 */
final class PendingServerCalls {
    private static final Logger LOG = LoggerFactory.getLogger(PendingServerCalls.class);

    private record PendingCall<R extends Message>(ServerCallStreamObserver<R> observer, Class<R> responseType) {
        void answer(Message payload) {
            Invariants.check(responseType.isInstance(payload), "a %s answers a call expecting %s",
                    payload.getClass().getSimpleName(), responseType.getSimpleName());
            observer.onNext(responseType.cast(payload));
            observer.onCompleted();
        }
    }

    private final ConcurrentHashMap<Long, PendingCall<?>> calls = new ConcurrentHashMap<>();
    private final AtomicLong nextCorrelationId = new AtomicLong();
    private final AtomicInteger size = new AtomicInteger();
    private final int pendingCallsMax;
    private final String logPrefix;

    PendingServerCalls(int pendingCallsMax, String logPrefix) {
        this.pendingCallsMax = pendingCallsMax;
        this.logPrefix = logPrefix;
    }

    /**
     * Stashes the call and returns its new correlation id, or -1 when {@code pendingCallsMax}
     * calls are already waiting (the caller then refuses the request). Must run inside the
     * service method: gRPC accepts a cancellation handler only there.
     */
    <R extends Message> long register(ServerCallStreamObserver<R> observer, Class<R> responseType) {
        if (size.incrementAndGet() > pendingCallsMax) {
            size.decrementAndGet();
            return -1;
        }
        long correlationId = nextCorrelationId.getAndIncrement();
        calls.put(correlationId, new PendingCall<>(observer, responseType));
        observer.setOnCancelHandler(() -> remove(correlationId));
        return correlationId;
    }

    /**
     * Sends {@code payload} as the answer to the call registered under {@code correlationId}.
     * An answer to a call that is gone (cancelled, timed out) is dropped: the caller has
     * already seen a failure. A payload of the wrong type is a core bug and throws
     * {@link io.metaquorum.common.invariant.InvariantViolation}.
     */
    void complete(long correlationId, Message payload) {
        PendingCall<?> call = remove(correlationId);
        if (call == null) {
            LOG.debug("{}dropping the answer to call {}: the caller is gone", logPrefix, correlationId);
            return;
        }
        try {
            call.answer(payload);
        } catch (IllegalStateException | io.grpc.StatusRuntimeException closed) {
            // Cancelled between remove() and onNext(): same as above, nobody is listening.
            LOG.debug("{}call {} closed before its answer was sent: {}", logPrefix, correlationId, closed.toString());
        }
    }

    /**
     * Fails every waiting call with {@code status}. Used when the server goes away: callers
     * then see that status (UNAVAILABLE) rather than the bare cancellation gRPC sends when a
     * server stops with calls in flight.
     */
    void failAll(Status status) {
        for (Long correlationId : List.copyOf(calls.keySet())) {
            PendingCall<?> call = remove(correlationId);
            if (call != null) {
                try {
                    call.observer().onError(status.asRuntimeException());
                } catch (IllegalStateException closed) {
                    LOG.debug("{}call {} closed before it could be failed", logPrefix, correlationId);
                }
            }
        }
    }

    /** Calls still waiting for an answer. */
    int size() {
        return size.get();
    }

    private PendingCall<?> remove(long correlationId) {
        PendingCall<?> call = calls.remove(correlationId);
        if (call != null) {
            size.decrementAndGet();
        }
        return call;
    }
}

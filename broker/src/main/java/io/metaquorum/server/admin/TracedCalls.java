package io.metaquorum.server.admin;

import io.grpc.BindableService;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.metaquorum.common.time.Time;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.trace.RequestTrace;

/**
 * Request traces on the admin listener: a call that carries the {@value #HEADER_NAME} header
 * gets a {@link RequestTrace} from the moment its headers arrive, and its answer carries the
 * trace's durations in the {@value #HEADER_NAME} trailer (one line, this node's stages first,
 * then those of the controller it forwarded to). Calls without the header are untouched.
 */
final class TracedCalls implements ServerInterceptor {
    static final String HEADER_NAME = "mq-trace";
    static final Metadata.Key<String> HEADER = Metadata.Key.of(HEADER_NAME, Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<RequestTrace> TRACE = Context.key(HEADER_NAME);

    private final Time time;
    private final int nodeId;

    private TracedCalls(Time time, int nodeId) {
        this.time = time;
        this.nodeId = nodeId;
    }

    /** {@code endpoint} behind this interceptor, reading the node's {@code time}. */
    static BindableService bind(BindableService endpoint, Time time, int nodeId) {
        return () -> ServerInterceptors.intercept(endpoint.bindService(), new TracedCalls(time, nodeId));
    }

    /** {@code origin} with the trace of the call being served on this thread, if it asked for one. */
    static CallOrigin traced(CallOrigin origin) {
        RequestTrace trace = TRACE.get();
        return trace == null ? origin : origin.traced(trace);
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                      ServerCallHandler<Q, R> next) {
        if (!headers.containsKey(HEADER)) {
            return next.startCall(call, headers);
        }
        RequestTrace trace = RequestTrace.received(time, nodeId);
        ServerCall<Q, R> reporting = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                trailers.put(HEADER, trace.describe());
                super.close(status, trailers);
            }
        };
        return Contexts.interceptCall(Context.current().withValue(TRACE, trace), reporting, headers, next);
    }
}

package io.metaquorum.server.admin;

import io.grpc.BindableService;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.security.grpc.IdentityInterceptor;

/**
 * The mark a forwarded request carries: the {@value #HEADER_NAME} gRPC header with the id of
 * the node that forwarded it. The server side copies it into the call's {@link Context} so
 * an endpoint can tell a forwarded call from a client's and never forward it a second time
 * (two nodes that each believe the other is the controller would otherwise bounce a request
 * between them until its deadline).
 */
final class ForwardedCalls implements ServerInterceptor {
    static final String HEADER_NAME = "mq-forwarded-by";
    static final Metadata.Key<String> HEADER = Metadata.Key.of(HEADER_NAME, Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<String> FORWARDED_BY = Context.key(HEADER_NAME);

    /**
     * {@code endpoint} behind this interceptor: what a node registers (registering the endpoint
     * itself would lose the mark, and a forwarded call could be forwarded again).
     */
    static BindableService bind(BindableService endpoint) {
        return () -> ServerInterceptors.intercept(endpoint, new ForwardedCalls());
    }

    /**
     * Where the call being served on this thread came from, and who made it. Any mark makes it
     * forwarded (so it is never forwarded again); one that is not a node id is reported as
     * forwarded by node 0.
     */
    static CallOrigin origin() {
        return mark().by(IdentityInterceptor.current()).afterAclChange(AclOffsetHeader.current());
    }

    private static CallOrigin mark() {
        String forwardedBy = FORWARDED_BY.get();
        if (forwardedBy == null) {
            return CallOrigin.CLIENT;
        }
        try {
            return CallOrigin.forwardedBy(Math.max(0, Integer.parseInt(forwardedBy)));
        } catch (NumberFormatException e) {
            return CallOrigin.forwardedBy(0);
        }
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                      ServerCallHandler<Q, R> next) {
        String forwardedBy = headers.get(HEADER);
        Context context = AclOffsetHeader.read(headers, Context.current());
        if (forwardedBy != null) {
            context = context.withValue(FORWARDED_BY, forwardedBy);
        }
        return context == Context.current() ? next.startCall(call, headers)
                : Contexts.interceptCall(context, call, headers, next);
    }
}

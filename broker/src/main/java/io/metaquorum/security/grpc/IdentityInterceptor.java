package io.metaquorum.security.grpc;

import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.PrincipalMappingException;
import io.metaquorum.security.Principal;
import io.metaquorum.security.Caller;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Set;
import javax.net.ssl.SSLSession;

/**
 * Tells every inbound call who made it ({@link #current()}): the connection's principal (the
 * client certificate's subject after {@code ssl.principal.mapping.rules}, or
 * {@code User:ANONYMOUS} without one) and address. A call that carries a forwarded principal
 * ({@link ForwardedIdentity}) is the original client's, but only when the connection's own
 * principal is a node principal: anyone else claiming to speak for another principal is
 * refused with PERMISSION_DENIED, and a certificate no rule maps is refused with
 * UNAUTHENTICATED, each with one line in the log ({@link RefusalLog}).
 */
public final class IdentityInterceptor implements ServerInterceptor {
    private static final Context.Key<Caller> CALLER = Context.key("mq-caller");

    private final SslPrincipalMapping mapping;
    private final Set<Principal> nodePrincipals;
    private final RefusalLog refusals;

    /**
     * @param nodePrincipals who may forward a request on behalf of another principal; empty
     *                       means anyone may (a cluster with no {@code super.users}, as Kafka
     *                       without an authorizer lets anyone send an envelope)
     */
    public IdentityInterceptor(SslPrincipalMapping mapping, Set<Principal> nodePrincipals, RefusalLog refusals) {
        this.mapping = mapping;
        this.nodePrincipals = Set.copyOf(nodePrincipals);
        this.refusals = refusals;
    }

    /** The caller of the call being served on this thread; {@link Caller#ANONYMOUS} outside one. */
    public static Caller current() {
        Caller caller = CALLER.get();
        return caller == null ? Caller.ANONYMOUS : caller;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                      ServerCallHandler<Q, R> next) {
        String host = host(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        Principal principal;
        try {
            principal = principal(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
        } catch (PrincipalMappingException e) {
            refusals.refused(host, "unauthenticated", e.getMessage());
            call.close(Status.UNAUTHENTICATED.withDescription(e.getMessage()), new Metadata());
            return new ServerCall.Listener<>() { };
        }
        Caller caller = new Caller(principal, host);
        Caller forwarded = ForwardedIdentity.read(headers);
        if (forwarded != null) {
            if (!nodePrincipals.isEmpty() && !nodePrincipals.contains(principal)) {
                String reason = principal + " is not a node principal (super.users) and may not forward a request"
                        + " for " + forwarded.principal();
                refusals.refused(host, "forwarded principal refused", reason + " (" + call.getMethodDescriptor()
                        .getBareMethodName() + ")");
                call.close(Status.PERMISSION_DENIED.withDescription(reason), new Metadata());
                return new ServerCall.Listener<>() { };
            }
            caller = forwarded.via(principal);
        }
        return Contexts.interceptCall(Context.current().withValue(CALLER, caller), call, headers, next);
    }

    private Principal principal(SSLSession session) {
        return PeerPrincipal.of(session, mapping);
    }

    private static String host(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return address == null ? "*" : address.toString();
    }
}

package io.metaquorum.security.grpc;

import io.metaquorum.security.Principal;
import io.metaquorum.security.Caller;
import io.grpc.Metadata;
import java.nio.charset.StandardCharsets;

/**
 * The original client of a forwarded request, as the forwarding node sends it: two gRPC
 * headers with its principal and host. Only a node principal's word is taken for it
 * ({@link IdentityInterceptor}).
 */
public final class ForwardedIdentity {
    /** Binary (UTF-8): a principal is a certificate subject, which may hold any character. */
    static final Metadata.Key<byte[]> PRINCIPAL =
            Metadata.Key.of("mq-forwarded-principal-bin", Metadata.BINARY_BYTE_MARSHALLER);
    static final Metadata.Key<String> HOST = Metadata.Key.of("mq-forwarded-host", Metadata.ASCII_STRING_MARSHALLER);

    private ForwardedIdentity() {
    }

    /** Adds {@code caller} to the headers of a call being forwarded. */
    public static void write(Caller caller, Metadata headers) {
        headers.put(PRINCIPAL, caller.principal().toString().getBytes(StandardCharsets.UTF_8));
        headers.put(HOST, caller.host());
    }

    /** The forwarded caller, or null when the call carries none; a malformed one counts as ANONYMOUS. */
    static Caller read(Metadata headers) {
        byte[] bytes = headers.get(PRINCIPAL);
        if (bytes == null) {
            return null;
        }
        String principal = new String(bytes, StandardCharsets.UTF_8);
        String host = headers.get(HOST);
        try {
            return new Caller(Principal.parse(principal), host == null ? "*" : host);
        } catch (IllegalArgumentException e) {
            return new Caller(Principal.ANONYMOUS, host == null ? "*" : host);
        }
    }
}

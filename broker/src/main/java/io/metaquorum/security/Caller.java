package io.metaquorum.security;

import java.util.Objects;

/**
 * Who made a request and from where, as the listener authenticated it: the principal and the
 * client's IP address (what Kafka's ACLs call the host). For a forwarded request these are the
 * original client's, vouched for by the forwarding node.
 */
public record Caller(Principal principal, String host) {
    /** A caller whose transport says nothing: in-process calls, the simulator's clients. */
    public static final Caller ANONYMOUS = new Caller(Principal.ANONYMOUS, "*");

    public Caller {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(host, "host");
    }

    @Override
    public String toString() {
        return principal + " from " + host;
    }
}

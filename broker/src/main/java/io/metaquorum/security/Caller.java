package io.metaquorum.security;

import java.util.Objects;
import java.util.Optional;

/**
 * Who made a request and from where, as the listener authenticated it: the principal and the
 * client's IP address (what Kafka's ACLs call the host). For a forwarded request these are the
 * original client's, vouched for by the forwarding node, whose own principal is
 * {@code forwardedBy}.
 */
public record Caller(Principal principal, String host, Optional<Principal> forwardedBy) {
    /** A caller whose transport says nothing: in-process calls, the simulator's clients. */
    public static final Caller ANONYMOUS = new Caller(Principal.ANONYMOUS, "*");

    public Caller {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(forwardedBy, "forwardedBy");
    }

    /** A caller on its own connection. */
    public Caller(Principal principal, String host) {
        this(principal, host, Optional.empty());
    }

    /** This caller, as vouched for by the node principal {@code node}. */
    public Caller via(Principal node) {
        return new Caller(principal, host, Optional.of(node));
    }

    @Override
    public String toString() {
        return principal + " from " + host + forwardedBy.map(node -> " via " + node).orElse("");
    }
}

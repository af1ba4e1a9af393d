package io.metaquorum.node.admin;

import java.util.function.Consumer;

/**
 * A write RPC that may be forwarded: its name in the service (what a transport finds its
 * wire method by) and how a receiving node serves it.
 *
 * @param <Q> the request message
 * @param <R> the response message
 */
public record AdminMethod<Q, R>(String name, Invoker<Q, R> invoker) {
    /** Serves the request on a node's handlers. */
    @FunctionalInterface
    public interface Invoker<Q, R> {
        void invoke(NodeRequests handlers, CallOrigin origin, Q request, Consumer<R> reply);
    }

    /** Serves {@code request} on {@code handlers}. */
    public void invoke(NodeRequests handlers, CallOrigin origin, Q request, Consumer<R> reply) {
        invoker.invoke(handlers, origin, request, reply);
    }
}

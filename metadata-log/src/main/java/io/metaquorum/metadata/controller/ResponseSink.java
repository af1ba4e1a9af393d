package io.metaquorum.metadata.controller;

/** Receives an operation's response exactly once, on the controller's thread. */
@FunctionalInterface
public interface ResponseSink<T> {
    void complete(T response);
}

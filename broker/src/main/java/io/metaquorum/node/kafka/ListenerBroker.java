package io.metaquorum.node.kafka;

/**
 * A registered broker as a client on one listener sees it: its endpoint on that listener.
 *
 * @param rack null when the broker has none
 */
record ListenerBroker(int id, String host, int port, String rack, boolean fenced) {
}

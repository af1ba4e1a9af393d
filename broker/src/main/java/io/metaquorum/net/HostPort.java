package io.metaquorum.net;

import java.net.InetSocketAddress;

/** A {@code HOST:PORT} address as written in configuration and on command lines. */
public record HostPort(String host, int port) {
    /**
     * Parses {@code HOST:PORT} (an IPv6 host in brackets: {@code [::1]:19091}); port 0-65535.
     * Throws {@link IllegalArgumentException} saying what is wrong.
     */
    public static HostPort parse(String text) {
        String trimmed = text.trim();
        int colon = trimmed.lastIndexOf(':');
        if (colon <= 0 || colon == trimmed.length() - 1) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        }
        String host = trimmed.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || host.contains("/")) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        }
        int port;
        try {
            port = Integer.parseInt(trimmed.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the port in '" + text + "' is not a number");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("the port in '" + text + "' is outside 0-65535");
        }
        return new HostPort(host, port);
    }

    /** The address, resolved now (a literal IP resolves without a lookup). */
    public InetSocketAddress toAddress() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }
}

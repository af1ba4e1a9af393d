package io.metaquorum.server;

import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One entry of {@code listeners} with {@code listener.security.protocol.map}, in Kafka's form:
 * {@code NAME://HOST:PORT}, where the map gives the name's security protocol; a bare
 * {@code HOST:PORT} is the {@code PLAINTEXT} listener. Which entry is the node's gRPC listener
 * and which speak Kafka's own protocol is {@link NodeListeners}' choice; this only reads them.
 */
public record ListenerSpec(String name, SecurityProtocol protocol, HostPort address) {
    /** Kafka's default map: each protocol is also a listener name for itself. */
    public static final String DEFAULT_PROTOCOL_MAP = "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,"
            + "SASL_SSL:SASL_SSL";
    private static final Pattern NAMED = Pattern.compile("([A-Za-z0-9_]+)://(.*)");

    /** What a listener speaks. SASL is for Kafka-protocol listeners only ({@link NodeListeners}). */
    public enum SecurityProtocol { PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL }

    /**
     * Parses every entry of {@code listeners}, in order; throws {@link ConfigException} naming
     * the key at fault: an entry that is no address, a name the map does not know, or two
     * entries with one name or one port.
     */
    public static List<ListenerSpec> parseAll(String listeners, String protocolMap) {
        Map<String, SecurityProtocol> protocols = parseProtocolMap(protocolMap);
        List<String> entries = List.of(listeners.split(",")).stream().map(String::trim)
                .filter(entry -> !entry.isEmpty()).toList();
        if (entries.isEmpty()) {
            throw new ConfigException(ConfigKeys.LISTENERS, "names no listener");
        }
        List<ListenerSpec> specs = new ArrayList<>();
        for (String entry : entries) {
            ListenerSpec spec = parseEntry(entry, listeners, protocols);
            for (ListenerSpec earlier : specs) {
                if (earlier.name().equals(spec.name())) {
                    throw new ConfigException(ConfigKeys.LISTENERS, "listener name " + spec.name()
                            + " is used twice in '" + listeners + "'; each listener needs a name of its own");
                }
                if (spec.address().port() != 0 && earlier.address().port() == spec.address().port()) {
                    throw new ConfigException(ConfigKeys.LISTENERS, "listeners " + earlier.name() + " and "
                            + spec.name() + " both use port " + spec.address().port() + "; each needs its own");
                }
            }
            specs.add(spec);
        }
        return List.copyOf(specs);
    }

    private static ListenerSpec parseEntry(String entry, String listeners, Map<String, SecurityProtocol> protocols) {
        Matcher named = NAMED.matcher(entry);
        String name = named.matches() ? named.group(1) : SecurityProtocol.PLAINTEXT.name();
        String hostPort = named.matches() ? named.group(2) : entry;
        HostPort address;
        try {
            address = HostPort.parse(hostPort);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigKeys.LISTENERS, e.getMessage());
        }
        SecurityProtocol protocol = protocols.get(name);
        if (protocol == null) {
            throw new ConfigException(ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP, "gives no security protocol for"
                    + " listener " + name + " (listeners=" + listeners + "); add " + name + ":PLAINTEXT or "
                    + name + ":SSL (or SASL_PLAINTEXT, SASL_SSL for a Kafka-protocol listener)");
        }
        return new ListenerSpec(name, protocol, address);
    }

    private static Map<String, SecurityProtocol> parseProtocolMap(String text) {
        Map<String, SecurityProtocol> map = new TreeMap<>();
        for (String pair : text.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] parts = pair.trim().split(":", -1);
            if (parts.length != 2 || parts[0].isBlank()) {
                throw new ConfigException(ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP,
                        "expected NAME:PROTOCOL pairs, got '" + pair.trim() + "'");
            }
            SecurityProtocol protocol;
            try {
                protocol = SecurityProtocol.valueOf(parts[1].trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP, "unknown security protocol '"
                        + parts[1].trim() + "'; expected one of " + List.of(SecurityProtocol.values()));
            }
            if (map.put(parts[0].trim(), protocol) != null) {
                throw new ConfigException(ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP,
                        "listener " + parts[0].trim() + " is mapped twice");
            }
        }
        return map;
    }

    @Override
    public String toString() {
        return name + "://" + address + " (" + protocol + ")";
    }
}

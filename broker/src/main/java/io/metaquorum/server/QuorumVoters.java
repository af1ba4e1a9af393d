package io.metaquorum.server;

import io.metaquorum.net.HostPort;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** Parses {@code controller.quorum.voters}: {@code 1@127.0.0.1:19091,2@127.0.0.1:19092,...}. */
public final class QuorumVoters {
    private QuorumVoters() {
    }

    /** Voter id to address, sorted by id; throws {@link ConfigException} naming the key. */
    public static Map<Integer, HostPort> parse(String text) {
        Map<Integer, HostPort> voters = new TreeMap<>();
        for (String entry : text.split(",", -1)) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int at = trimmed.indexOf('@');
            if (at <= 0) {
                throw invalid("expected ID@HOST:PORT entries separated by commas, got '" + trimmed + "'");
            }
            int id;
            try {
                id = Integer.parseInt(trimmed.substring(0, at));
            } catch (NumberFormatException e) {
                throw invalid("the voter id in '" + trimmed + "' is not an integer");
            }
            if (id < 0) {
                throw invalid("the voter id in '" + trimmed + "' is negative");
            }
            HostPort address;
            try {
                address = HostPort.parse(trimmed.substring(at + 1));
            } catch (IllegalArgumentException e) {
                throw invalid(e.getMessage());
            }
            if (address.port() == 0) {
                throw invalid("voter " + id + " needs a real port, not 0");
            }
            if (voters.put(id, address) != null) {
                throw invalid("voter " + id + " is listed twice");
            }
        }
        if (voters.isEmpty()) {
            throw invalid("no voters listed; expected 1@HOST:PORT,2@HOST:PORT,...");
        }
        return Collections.unmodifiableMap(voters);
    }

    private static ConfigException invalid(String problem) {
        return new ConfigException(ConfigKeys.QUORUM_VOTERS, problem);
    }
}

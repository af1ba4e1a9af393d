package io.metaquorum.server;

import io.metaquorum.net.HostPort;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.VoterSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code mq-storage format --initial-controllers}: {@code ID@HOST:PORT:DIRECTORY_ID}
 * entries separated by commas (Kafka's flag), the voter set a new quorum starts with.
 */
public final class InitialControllers {
    public static final String FLAG = "--initial-controllers";

    private InitialControllers() {
    }

    /** Throws {@link IllegalArgumentException} naming the flag and the bad entry. */
    public static VoterSet parse(String text) {
        return parse(text, FLAG);
    }

    /** The same syntax given to another flag ({@code mq-metadata unsafe-recover --voters}), named in errors. */
    public static VoterSet parse(String text, String flag) {
        try {
            return parseEntries(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage(), e);
        }
    }

    private static VoterSet parseEntries(String text) {
        List<VoterSet.Voter> voters = new ArrayList<>();
        for (String entry : text.split(",", -1)) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                throw invalid("an empty entry in '" + text + "'");
            }
            voters.add(parseEntry(trimmed));
        }
        try {
            return VoterSet.of(voters);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    private static VoterSet.Voter parseEntry(String entry) {
        int at = entry.indexOf('@');
        int lastColon = entry.lastIndexOf(':');
        if (at <= 0 || lastColon <= at) {
            throw invalid("expected ID@HOST:PORT:DIRECTORY_ID, got '" + entry + "'");
        }
        int id;
        try {
            id = Integer.parseInt(entry.substring(0, at));
        } catch (NumberFormatException e) {
            throw invalid("the node id in '" + entry + "' is not an integer");
        }
        if (id < 0) {
            throw invalid("the node id in '" + entry + "' is negative");
        }
        HostPort address;
        try {
            address = HostPort.parse(entry.substring(at + 1, lastColon));
        } catch (IllegalArgumentException e) {
            throw invalid("'" + entry + "': " + e.getMessage());
        }
        if (address.port() == 0) {
            throw invalid("controller " + id + " needs a real port, not 0");
        }
        try {
            ReplicaKey key = new ReplicaKey(id, DirectoryIds.parse(entry.substring(lastColon + 1)));
            return new VoterSet.Voter(key, List.of(new VoterSet.Endpoint(address.host(), address.port())));
        } catch (IllegalArgumentException e) {
            throw invalid("'" + entry + "': " + e.getMessage());
        }
    }

    private static IllegalArgumentException invalid(String problem) {
        return new IllegalArgumentException(problem);
    }
}

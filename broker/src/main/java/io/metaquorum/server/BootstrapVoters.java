package io.metaquorum.server;

import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The voter set a quorum starts from (KIP-853), written by {@code mq-storage format} into the
 * metadata directory as {@value #FILE_NAME}: the {@code --initial-controllers}, or none for
 * {@code --no-initial-controllers}. It is our form of Kafka's bootstrap checkpoint: raft
 * reads it only while its log and snapshot name no voter set, and the first leader writes it
 * into the log (KRaftVersionRecord, VotersRecord), from where every replica learns it. A
 * directory without the file (formatted without either flag, or before KIP-853) runs on the
 * static {@code controller.quorum.voters}.
 */
public final class BootstrapVoters {
    public static final String FILE_NAME = "bootstrap-voters.properties";
    private static final String KEY = "initial.controllers";

    private BootstrapVoters() {
    }

    /** Writes {@code voters} ({@link VoterSet#EMPTY} for --no-initial-controllers) atomically and durably. */
    static void write(Path dir, VoterSet voters) {
        String text = "#\n# Written by mq-storage format. Do not edit.\n"
                + "# The voter set until the metadata log holds one (kraft.version 1).\n#\n"
                + "version=1\nkraft.version=1\n" + KEY + "=" + String.join(",", entries(voters)) + "\n";
        DurableTextFile.write(dir, FILE_NAME, text);
    }

    /** The file's voter set; empty when the directory has no file. A broken file is an error naming it. */
    public static Optional<VoterSet> read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        Optional<Properties> read = DurableTextFile.readProperties(dir, FILE_NAME);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        Properties properties = read.get();
        String text = properties.getProperty(KEY);
        if (text == null) {
            throw new IllegalStateException(file + " has no " + KEY);
        }
        if (text.isBlank()) {
            return Optional.of(VoterSet.EMPTY);
        }
        try {
            return Optional.of(InitialControllers.parse(text.trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(file + " has a bad " + KEY + ": " + e.getMessage());
        }
    }

    /** {@code ID@HOST:PORT:DIRECTORY_ID}, the form {@code --initial-controllers} takes. */
    static List<String> entries(VoterSet voters) {
        List<String> entries = new ArrayList<>();
        for (VoterSet.Voter voter : voters.voters()) {
            VoterSet.Endpoint endpoint = voter.endpoints().get(0);
            entries.add(voter.key().id() + "@" + endpoint.host() + ":" + endpoint.port() + ":"
                    + TopicIds.toBase64(voter.key().directoryId()));
        }
        return entries;
    }
}

package io.metaquorum.server;

import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The SCRAM credentials {@code mq-storage format --add-scram} gives a controller, written into
 * its metadata directory as {@value #FILE_NAME}: one UserScramCredentialRecord per line, as
 * base64 of the record's bytes (salts and keys only, no password). It is our part of Kafka's
 * bootstrap checkpoint: the controller reads it at every start, and the cluster's first active
 * controller appends the records with the metadata.version record, on an empty log only, so they
 * reach the log exactly once. Checked when read: a record that is not a credential, or one
 * replay would refuse, stops start-up naming the file.
 */
public final class BootstrapScram {
    public static final String FILE_NAME = "bootstrap-scram.properties";
    private static final String COUNT = "credentials";
    private static final String PREFIX = "credential.";

    private BootstrapScram() {
    }

    /** Writes {@code records} (UserScramCredentialRecords) atomically and durably. */
    static void write(Path dir, List<MetadataRecord> records) {
        StringBuilder text = new StringBuilder("#\n# Written by mq-storage format --add-scram. Do not edit.\n"
                + "# SCRAM credentials the first active controller writes into the metadata log.\n#\nversion=1\n");
        text.append(COUNT).append('=').append(records.size()).append('\n');
        for (int i = 0; i < records.size(); i++) {
            text.append(PREFIX).append(i).append('=').append(Base64.getEncoder().encodeToString(
                    records.get(i).toByteArray())).append('\n');
        }
        DurableTextFile.write(dir, FILE_NAME, text.toString());
    }

    /** The file's records; none when the directory has no file. A broken file is an error naming it. */
    public static List<MetadataRecord> read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        Optional<Properties> read = DurableTextFile.readProperties(dir, FILE_NAME);
        if (read.isEmpty()) {
            return List.of();
        }
        Properties properties = read.get();
        int count;
        try {
            count = Integer.parseInt(properties.getProperty(COUNT, "").trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + " has no valid " + COUNT);
        }
        List<MetadataRecord> records = new ArrayList<>(count);
        MetadataDelta check = new MetadataDelta(MetadataImage.EMPTY);
        for (int i = 0; i < count; i++) {
            String key = PREFIX + i;
            MetadataRecord record = record(file, key, properties.getProperty(key));
            try {
                check.replay(record, i, 0);
            } catch (InvalidRecordException e) {
                throw new IllegalStateException(file + " has a bad " + key + ": " + e.getMessage());
            }
            records.add(record);
        }
        return records;
    }

    private static MetadataRecord record(Path file, String key, String text) {
        if (text == null) {
            throw new IllegalStateException(file + " has no " + key);
        }
        MetadataRecord record;
        try {
            record = MetadataRecord.parseFrom(Base64.getDecoder().decode(text.trim()));
        } catch (IllegalArgumentException | com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException(file + " has a bad " + key + ": not a record");
        }
        if (!record.hasUserScramCredential()) {
            throw new IllegalStateException(file + " has a bad " + key + ": not a UserScramCredentialRecord");
        }
        return record;
    }
}

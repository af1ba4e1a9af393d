package io.metaquorum.security;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a key store or trust store comes from, in the three forms Kafka's keys allow: a
 * PKCS12 or JKS file with its password, a PEM file, or PEM text written into the
 * configuration itself (KIP-651). Only the file forms can change while a node runs.
 */
public sealed interface StoreSource {
    /** The files whose change means the store must be read again; none for PEM text. */
    List<Path> files();

    /** What to name in a message: the file, or the configuration key holding the PEM text. */
    String describe();

    /** A PKCS12 or JKS file. */
    record KeyStoreFile(Path path, String type, Optional<String> password) implements StoreSource {
        @Override
        public List<Path> files() {
            return List.of(path);
        }

        @Override
        public String describe() {
            return path + " (" + type + ")";
        }
    }

    /** A PEM file: for a key store, the private key and its certificate chain; for a trust store, certificates. */
    record PemFile(Path path) implements StoreSource {
        @Override
        public List<Path> files() {
            return List.of(path);
        }

        @Override
        public String describe() {
            return path + " (PEM)";
        }
    }

    /** PEM text from the configuration: {@code key} is empty for a trust store. */
    record PemText(String certificates, Optional<String> key, String configKey) implements StoreSource {
        @Override
        public List<Path> files() {
            return List.of();
        }

        @Override
        public String describe() {
            return configKey + " (PEM text)";
        }
    }
}

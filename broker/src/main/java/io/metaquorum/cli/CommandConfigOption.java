package io.metaquorum.cli;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.grpc.ClientSecurity;
import io.metaquorum.security.SslConfigError;
import io.metaquorum.security.grpc.StoreLoadException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --command-config FILE}: Kafka client properties ({@code security.protocol=SSL} and the
 * {@code ssl.*} keys) for tools that talk to a TLS listener; plaintext without it.
 */
public final class CommandConfigOption {
    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Kafka client properties: security.protocol=SSL with ssl.keystore.* and ssl.truststore.* "
                + "for a TLS listener (default: plaintext).")
    Path file;

    /** The credentials to connect with; a file that cannot be used is an {@link AdminError} naming it. */
    public ClientSecurity security() {
        if (file == null) {
            return ClientSecurity.PLAINTEXT;
        }
        try {
            return ClientSecurity.load(file);
        } catch (SslConfigError | StoreLoadException e) {
            throw new AdminError(ErrorCode.INVALID_CONFIG, "--command-config " + file + ": " + e.getMessage());
        }
    }
}

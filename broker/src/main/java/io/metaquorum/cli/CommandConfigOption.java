package io.metaquorum.cli;

import io.grpc.ChannelCredentials;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.ClientSecurity;
import io.metaquorum.security.SslConfigError;
import io.metaquorum.security.StoreLoadException;
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
    public ChannelCredentials credentials() {
        if (file == null) {
            return ClientSecurity.plaintext();
        }
        try {
            return ClientSecurity.load(file);
        } catch (SslConfigError | StoreLoadException e) {
            throw new AdminError(ErrorCode.INVALID_CONFIG, "--command-config " + file + ": " + e.getMessage());
        }
    }
}

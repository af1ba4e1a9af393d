package io.metaquorum.cli;

import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code mq-certs node} and {@code mq-certs client} share; those they share with
 * {@code mq-certs ca} too are its mixins.
 */
final class IssueOptions {
    /** A year: a node or client certificate is renewed far more often than its CA. */
    static final int DEFAULT_DAYS = 365;

    @Option(names = "--ca-dir", required = true, paramLabel = "DIR",
            description = "The directory mq-certs ca wrote (ca.crt, ca.key).")
    Path caDir;
    @Option(names = "--name", required = true, paramLabel = "NAME",
            description = "The common name (CN=NAME), also the files' name.")
    String name;
    @Mixin
    CertificateOptions certificate = new CertificateOptions(DEFAULT_DAYS);
    @Mixin
    OutputFilesOptions output = new OutputFilesOptions();
    @Option(names = "--format", paramLabel = "pkcs12|pem", defaultValue = "pkcs12",
            description = "pkcs12 (default): NAME.p12 and truststore.p12. pem: NAME.crt (chain), NAME.key, "
                    + "NAME.pem (key and chain in one file) and ca.crt.")
    String format;
    @Option(names = "--store-password", paramLabel = "P",
            description = "The PKCS12 stores' password (and the key's in them); required for pkcs12.")
    String storePassword;
    @Option(names = "--key-password", paramLabel = "P",
            description = "pem only: encrypt the private key (PKCS#8) with this password.")
    String keyPassword;
}

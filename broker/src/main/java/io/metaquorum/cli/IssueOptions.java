package io.metaquorum.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options {@code mq-certs node} and {@code mq-certs client} share. */
final class IssueOptions {
    @Option(names = "--ca-dir", required = true, paramLabel = "DIR",
            description = "The directory mq-certs ca wrote (ca.crt, ca.key).")
    Path caDir;
    @Option(names = "--name", required = true, paramLabel = "NAME",
            description = "The common name (CN=NAME), also the files' name.")
    String name;
    @Option(names = "--dn", paramLabel = "DN", defaultValue = "",
            description = "More of the subject after CN, e.g. OU=brokers,O=acme.")
    String extraDn;
    @Option(names = "--out-dir", required = true, paramLabel = "DIR", description = "Where to write the files.")
    Path outDir;
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
    @Option(names = "--days", paramLabel = "N", defaultValue = "365",
            description = "Days the certificate is valid (default: ${DEFAULT-VALUE}).")
    int days;
    @Option(names = "--key-type", paramLabel = "ec|rsa", defaultValue = "ec",
            description = "EC P-256 (default) or RSA 2048.")
    String keyType;
    @Option(names = "--force", description = "Replace files that exist.")
    boolean force;
}

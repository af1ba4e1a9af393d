package io.metaquorum.cli;

import picocli.CommandLine.Option;

/**
 * What every {@code mq-certs} command asks about the certificate it makes, the CA's own
 * included: more of its subject, how long it is valid, and its key type.
 */
final class CertificateOptions {
    @Option(names = "--dn", paramLabel = "DN", defaultValue = "",
            description = "More of the subject after CN, e.g. OU=brokers,O=acme.")
    String extraDn;
    /** No {@code defaultValue}: picocli shows this field's starting value, which each command sets. */
    @Option(names = "--days", paramLabel = "N", description = "Days the certificate is valid (default: ${DEFAULT-VALUE}).")
    int days;
    @Option(names = "--key-type", paramLabel = "ec|rsa", defaultValue = "ec",
            description = "EC P-256 (default) or RSA 2048.")
    String keyType;

    /** {@code defaultDays}: a CA outlives the certificates it signs, so the commands differ here. */
    CertificateOptions(int defaultDays) {
        this.days = defaultDays;
    }
}

package io.metaquorum.cli;

import io.metaquorum.security.certs.CertificatePurpose;
import io.metaquorum.security.certs.CertificateRequest;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mq-certs client}: a client's certificate, for mutual TLS; the CN is its principal. */
@Command(name = "client", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Issues a client certificate signed by the CA in --ca-dir: CN=NAME, extendedKeyUsage "
                + "clientAuth only, no subjectAltName (nobody dials a client).",
            "Prints each file written, then the Kafka SSL settings that use them."})
final class IssueClientCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    IssueOptions options;

    @Override
    public Integer call() {
        return IssuedCertificateFiles.issue(options, (subject, validity, keyType) -> new CertificateRequest(subject,
                List.of(), CertificatePurpose.CLIENT, keyType, validity), spec.commandLine().getOut());
    }
}

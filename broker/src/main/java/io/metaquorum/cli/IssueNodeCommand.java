package io.metaquorum.cli;

import io.metaquorum.security.certs.CertificatePurpose;
import io.metaquorum.security.certs.CertificateRequest;
import io.metaquorum.security.certs.SubjectAltName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mq-certs node}: a node's certificate, for serving its listeners and dialling its peers. */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Issues a node certificate signed by the CA in --ca-dir: CN=NAME, extendedKeyUsage "
                + "serverAuth and clientAuth (a node serves its peers and dials them), subjectAltName from --san.",
            "Prints each file written, then the Kafka SSL settings that use them."})
final class IssueNodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    IssueOptions options;

    @Option(names = "--san", required = true, paramLabel = "DNS:NAME|IP:ADDR[,...]", split = ",",
            hideParamSyntax = true,
            description = "The names clients dial this node by (comma-separated or repeated), "
                    + "e.g. DNS:localhost,IP:127.0.0.1. TLS clients check the host against these, not the CN.")
    List<String> sans = new ArrayList<>();

    @Override
    public Integer call() {
        List<SubjectAltName> names = new ArrayList<>();
        for (String san : sans) {
            try {
                names.add(SubjectAltName.parse(san.strip()));
            } catch (IllegalArgumentException e) {
                throw new CommandFailure("--san " + e.getMessage(), e);
            }
        }
        return IssuedCertificateFiles.issue(options, (subject, validity, keyType) -> new CertificateRequest(subject,
                names, CertificatePurpose.NODE, keyType, validity), spec.commandLine().getOut());
    }
}

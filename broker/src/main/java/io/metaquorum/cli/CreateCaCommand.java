package io.metaquorum.cli;

import io.metaquorum.security.certs.CertificateAuthority;
import io.metaquorum.security.certs.CertificateRequest;
import io.metaquorum.security.certs.PemFiles;
import io.metaquorum.security.certs.Pkcs12Stores;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.security.auth.x500.X500Principal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mq-certs ca}: a new self-signed certificate authority. */
@Command(name = "ca", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Makes a self-signed CA: DIR/ca.crt (PEM certificate) and DIR/ca.key (PKCS#8 PEM, "
                + "unencrypted, mode 600), and DIR/truststore.p12 (PKCS12 with the CA as trusted entry) when "
                + "--store-password is given. Keep ca.key away from the nodes: whoever has it can issue "
                + "certificates every node trusts."})
final class CreateCaCommand implements Callable<Integer> {
    static final String CERTIFICATE_FILE = "ca.crt";
    static final String KEY_FILE = "ca.key";
    static final String TRUST_STORE_FILE = "truststore.p12";
    /** Ten years: replacing a CA means reissuing every certificate it signed. */
    static final int DEFAULT_DAYS = 3650;

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Mixin
    OutputFilesOptions output = new OutputFilesOptions();
    @Option(names = "--name", paramLabel = "CN", defaultValue = "metaquorum-ca",
            description = "The CA's common name (default: ${DEFAULT-VALUE}).")
    String name;
    @Mixin
    CertificateOptions certificate = new CertificateOptions(DEFAULT_DAYS);
    @Option(names = "--store-password", paramLabel = "P",
            description = "Also write truststore.p12 with this password.")
    String storePassword;

    @Override
    public Integer call() {
        X500Principal subject = subject();
        var validity = CertsArguments.days(certificate.days);
        var type = CertsArguments.keyType(certificate.keyType);
        char[] password = CertsArguments.password(storePassword, "--store-password");
        List<String> files = new ArrayList<>(List.of(CERTIFICATE_FILE, KEY_FILE));
        if (password != null) {
            files.add(TRUST_STORE_FILE);
        }
        PrintWriter out = spec.commandLine().getOut();
        OutputDirectory directory = output.prepare(files, out);

        SecureRandom random = new SecureRandom();
        CertificateAuthority ca = CertificateAuthority.create(subject, type, validity, random);
        directory.write(CERTIFICATE_FILE, "CA certificate",
                file -> PemFiles.writeCertificates(file, List.of(ca.certificate())));
        directory.write(KEY_FILE, "CA private key, keep it secret",
                file -> PemFiles.writePrivateKey(file, ca.privateKey(), null, random));
        if (password != null) {
            directory.write(TRUST_STORE_FILE, "PKCS12 trust store with the CA", file -> Pkcs12Stores.writeTrustStore(
                    file, Pkcs12Stores.trustStore(List.of(ca.certificate())), password));
        }
        out.println("subject " + ca.certificate().getSubjectX500Principal().getName() + ", valid until "
                + ca.certificate().getNotAfter().toInstant());
        return CommandLines.EXIT_OK;
    }

    private X500Principal subject() {
        if (name.isBlank() || name.length() > 64) {
            throw new CommandFailure("--name must be 1 to 64 characters");
        }
        try {
            return CertificateRequest.subject(name, certificate.extraDn);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure("--dn " + e.getMessage(), e);
        }
    }
}

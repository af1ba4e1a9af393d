package io.metaquorum.cli;

import io.metaquorum.security.certs.CertificateAuthority;
import io.metaquorum.security.certs.CertificateFiles;
import io.metaquorum.security.certs.CertificateRequest;
import io.metaquorum.security.certs.IssuedCertificate;
import io.metaquorum.security.certs.KeyType;
import io.metaquorum.security.certs.PemFiles;
import io.metaquorum.security.certs.Pkcs12Stores;
import io.metaquorum.security.certs.Validity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.security.auth.x500.X500Principal;

/**
 * What {@code mq-certs node} and {@code mq-certs client} do after parsing: check the options,
 * load the CA, issue the certificate, write it in the chosen format and print the Kafka
 * settings that use the files. The settings name passwords without their values: the tool
 * does not echo a secret to a terminal or a log.
 */
final class IssuedCertificateFiles {
    /** Builds the request once the common options are checked. */
    interface RequestShape {
        CertificateRequest request(X500Principal subject, Validity validity, KeyType keyType);
    }

    private enum Format { PKCS12, PEM }

    private IssuedCertificateFiles() {
    }

    static int issue(IssueOptions options, RequestShape shape, PrintWriter out) {
        String name = CertsArguments.fileSafeName(options.name);
        X500Principal subject;
        try {
            subject = CertificateRequest.subject(name, options.certificate.extraDn);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure("--dn " + e.getMessage(), e);
        }
        Validity validity = CertsArguments.days(options.certificate.days);
        KeyType keyType = CertsArguments.keyType(options.certificate.keyType);
        Format format = format(options);
        char[] storePassword = CertsArguments.password(options.storePassword, "--store-password");
        char[] keyPassword = CertsArguments.password(options.keyPassword, "--key-password");
        CertificateAuthority ca = loadCa(options.caDir);
        // A certificate that outlives its CA stops verifying when the CA expires, silently early.
        Instant caNotAfter = ca.certificate().getNotAfter().toInstant();
        if (validity.notAfter().isAfter(caNotAfter)) {
            throw new CommandFailure("--days " + options.certificate.days + " would outlast the CA, which expires " + caNotAfter
                    + "; give fewer days or make a new CA");
        }
        List<String> files = format == Format.PKCS12
                ? List.of(name + ".p12", CreateCaCommand.TRUST_STORE_FILE)
                : List.of(name + ".crt", name + ".key", name + ".pem", CreateCaCommand.CERTIFICATE_FILE);
        OutputDirectory directory = options.output.prepare(files, out);

        SecureRandom random = new SecureRandom();
        IssuedCertificate issued = ca.issue(shape.request(subject, validity, keyType), random);
        List<String> settings = format == Format.PKCS12
                ? writePkcs12(directory, name, issued, storePassword)
                : writePem(directory, name, issued, keyPassword, random);
        out.println();
        out.println("# Kafka SSL settings for " + subject.getName() + " (fill in the passwords you chose):");
        settings.forEach(out::println);
        return CommandLines.EXIT_OK;
    }

    private static Format format(IssueOptions options) {
        Format format = switch (options.format.toLowerCase(Locale.ROOT)) {
            case "pkcs12" -> Format.PKCS12;
            case "pem" -> Format.PEM;
            default -> throw new CommandFailure("--format must be pkcs12 or pem, got '" + options.format + "'");
        };
        if (format == Format.PKCS12 && options.storePassword == null) {
            throw new CommandFailure("--format pkcs12 needs --store-password (Java cannot read a PKCS12 store "
                    + "without one)");
        }
        if (format == Format.PKCS12 && options.keyPassword != null) {
            throw new CommandFailure("--key-password is for --format pem; a PKCS12 key uses --store-password");
        }
        if (format == Format.PEM && options.storePassword != null) {
            throw new CommandFailure("--store-password is for --format pkcs12; to encrypt a PEM key use --key-password");
        }
        return format;
    }

    private static CertificateAuthority loadCa(Path caDir) {
        try {
            return CertificateAuthority.load(caDir.resolve(CreateCaCommand.CERTIFICATE_FILE),
                    caDir.resolve(CreateCaCommand.KEY_FILE), null);
        } catch (IOException e) {
            throw new CommandFailure("cannot load the CA from " + caDir + ": " + CommandLines.describe(e)
                    + " (make one with mq-certs ca)", e);
        }
    }

    private static List<String> writePkcs12(OutputDirectory directory, String name, IssuedCertificate issued,
                                            char[] password) {
        Path keyStore = directory.write(name + ".p12", "PKCS12 key store: key and chain under alias " + name,
                file -> Pkcs12Stores.writeKeyStore(file, Pkcs12Stores.keyStore(issued, name, password), password));
        List<X509Certificate> caCertificates = issued.chain().subList(1, issued.chain().size());
        Path trustStore = directory.write(CreateCaCommand.TRUST_STORE_FILE, "PKCS12 trust store with the CA",
                file -> Pkcs12Stores.writeTrustStore(file, Pkcs12Stores.trustStore(caCertificates), password));
        return List.of(
                "ssl.keystore.type=PKCS12",
                "ssl.keystore.location=" + keyStore,
                "ssl.keystore.password=<store password>",
                "ssl.key.password=<store password>",
                "ssl.truststore.type=PKCS12",
                "ssl.truststore.location=" + trustStore,
                "ssl.truststore.password=<store password>");
    }

    private static List<String> writePem(OutputDirectory directory, String name, IssuedCertificate issued,
                                         char[] keyPassword, SecureRandom random) {
        String keyPem = PemFiles.privateKeyPem(issued.key(), keyPassword, random);
        directory.write(name + ".crt", "certificate chain",
                file -> PemFiles.writeCertificates(file, issued.chain()));
        directory.write(name + ".key", keyPassword == null ? "PKCS#8 private key" : "encrypted PKCS#8 private key",
                file -> CertificateFiles.writeSecret(file, ascii(keyPem)));
        // Kafka's file-based PEM key store (ssl.keystore.location with type PEM) reads the key and
        // the chain from one file.
        Path combined = directory.write(name + ".pem", "private key and chain, for ssl.keystore.location",
                file -> CertificateFiles.writeSecret(file,
                        ascii(keyPem + PemFiles.certificatesPem(issued.chain()))));
        Path trust = directory.write(CreateCaCommand.CERTIFICATE_FILE, "CA certificate",
                file -> PemFiles.writeCertificates(file, issued.chain().subList(1, issued.chain().size())));
        List<String> settings = new ArrayList<>(List.of(
                "ssl.keystore.type=PEM",
                "ssl.keystore.location=" + combined));
        if (keyPassword != null) {
            settings.add("ssl.key.password=<key password>");
        }
        settings.add("ssl.truststore.type=PEM");
        settings.add("ssl.truststore.location=" + trust);
        return settings;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}

package io.metaquorum.security;

import io.metaquorum.security.certs.CertificateAuthority;
import io.metaquorum.security.certs.CertificateRequest;
import io.metaquorum.security.certs.IssuedCertificate;
import io.metaquorum.security.certs.KeyType;
import io.metaquorum.security.certs.Pkcs12Stores;
import io.metaquorum.security.certs.SubjectAltName;
import io.metaquorum.security.certs.Validity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.security.auth.x500.X500Principal;

/**
 * A CA and the key and trust stores tests need, written as PKCS12 files under one directory:
 * node certificates (SANs 127.0.0.1 and localhost), client certificates, expired ones, trust
 * stores of one or more CAs, and the Kafka settings that name them.
 */
public final class TestPki {
    public static final String PASSWORD = "test-store-password";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;
    private final CertificateAuthority ca;

    private TestPki(Path dir, CertificateAuthority ca) {
        this.dir = dir;
        this.ca = ca;
    }

    /** A new CA named {@code name}, its files under {@code dir}. */
    public static TestPki create(Path dir, String name) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TestPki(dir, CertificateAuthority.create(new X500Principal("CN=" + name), KeyType.EC,
                Validity.days(Instant.now().minus(Duration.ofMinutes(5)), 30), RANDOM));
    }

    public X509Certificate caCertificate() {
        return ca.certificate();
    }

    /** A node's key store ({@code CN=name}, server and client use) at {@code dir/name.p12}. */
    public Path nodeKeyStore(String name) {
        return write(name + ".p12", ca.issue(CertificateRequest.node(name,
                List.of(SubjectAltName.ip("127.0.0.1"), SubjectAltName.dns("localhost")), valid()), RANDOM));
    }

    /** A client's key store ({@code CN=name}, client use) at {@code dir/name.p12}. */
    public Path clientKeyStore(String name) {
        return write(name + ".p12", ca.issue(CertificateRequest.client(name, valid()), RANDOM));
    }

    /** A client certificate that expired an hour ago. */
    public Path expiredClientKeyStore(String name) {
        Instant now = Instant.now();
        return write(name + ".p12", ca.issue(CertificateRequest.client(name,
                new Validity(now.minus(Duration.ofDays(2)), now.minus(Duration.ofHours(1)))), RANDOM));
    }

    /** A trust store of this CA and {@code others} at {@code dir/fileName}. */
    public Path trustStore(String fileName, TestPki... others) {
        List<X509Certificate> cas = new java.util.ArrayList<>();
        cas.add(ca.certificate());
        Arrays.stream(others).map(TestPki::caCertificate).forEach(cas::add);
        Path file = dir.resolve(fileName);
        try {
            Pkcs12Stores.writeTrustStore(file, Pkcs12Stores.trustStore(cas), PASSWORD.toCharArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** The ssl.* settings of a key store and a trust store (a node's, or a client's with security.protocol). */
    public static Map<String, String> settings(Path keyStore, Path trustStore) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (keyStore != null) {
            settings.put("ssl.keystore.location", keyStore.toString());
            settings.put("ssl.keystore.type", "PKCS12");
            settings.put("ssl.keystore.password", PASSWORD);
        }
        settings.put("ssl.truststore.location", trustStore.toString());
        settings.put("ssl.truststore.type", "PKCS12");
        settings.put("ssl.truststore.password", PASSWORD);
        return settings;
    }

    /** Replaces {@code target} with {@code replacement} the way an operator rotates a file: one atomic rename. */
    public static void rotate(Path replacement, Path target) {
        try {
            Path staged = target.resolveSibling(target.getFileName() + ".new");
            Files.copy(replacement, staged, StandardCopyOption.REPLACE_EXISTING);
            Files.move(staged, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Validity valid() {
        return Validity.days(Instant.now().minus(Duration.ofMinutes(5)), 30);
    }

    private Path write(String fileName, IssuedCertificate issued) {
        Path file = dir.resolve(fileName);
        try {
            Pkcs12Stores.writeKeyStore(file, Pkcs12Stores.keyStore(issued, "key", PASSWORD.toCharArray()),
                    PASSWORD.toCharArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}

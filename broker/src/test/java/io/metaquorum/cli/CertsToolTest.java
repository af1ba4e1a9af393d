package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.security.certs.CertificateAuthority;
import io.metaquorum.security.certs.PemFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertsToolTest {
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

    @TempDir
    Path dir;

    private Path ca() {
        Path caDir = dir.resolve("ca");
        CliRun run = CliRun.of(CertsTool::run, "ca", "--out-dir", caDir.toString(), "--name", "test-ca");
        assertEquals(0, run.exitCode(), run.err());
        return caDir;
    }

    private static KeyStore load(Path file, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        return store;
    }

    @Test
    void caWritesTheCertificateAndAnOwnerOnlyKeyAndATrustStoreWhenAskedTo() throws Exception {
        Path caDir = dir.resolve("ca");
        CliRun run = CliRun.of(CertsTool::run, "ca", "--out-dir", caDir.toString(), "--name", "Acme CA",
                "--dn", "O=acme", "--store-password", "pw-123");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        assertTrue(run.out().contains("wrote " + caDir.resolve("ca.crt")), run.out());
        assertTrue(run.out().contains("wrote " + caDir.resolve("ca.key")), run.out());
        assertTrue(run.out().contains("wrote " + caDir.resolve("truststore.p12")), run.out());
        CertificateAuthority ca = CertificateAuthority.load(caDir.resolve("ca.crt"), caDir.resolve("ca.key"), null);
        assertEquals("CN=Acme CA,O=acme", ca.certificate().getSubjectX500Principal().getName());
        assertEquals("rw-------", permissions(caDir.resolve("ca.key")));
        assertEquals(ca.certificate(), load(caDir.resolve("truststore.p12"), "pw-123").getCertificate("ca"));
    }

    @Test
    void nodeWritesAPkcs12KeyStoreAndTrustStoreAndPrintsTheKafkaSettings() throws Exception {
        Path caDir = ca();
        Path out = dir.resolve("node-1");
        CliRun run = CliRun.of(CertsTool::run, "node", "--ca-dir", caDir.toString(), "--name", "node-1",
                "--san", "DNS:localhost,IP:127.0.0.1", "--out-dir", out.toString(), "--store-password", "pw-123");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals("wrote " + out.resolve("node-1.p12") + " (PKCS12 key store: key and chain under alias node-1)",
                lines.get(0));
        assertTrue(lines.contains("ssl.keystore.type=PKCS12"), run.out());
        assertTrue(lines.contains("ssl.keystore.location=" + out.resolve("node-1.p12")), run.out());
        assertTrue(lines.contains("ssl.truststore.location=" + out.resolve("truststore.p12")), run.out());
        assertFalse(run.out().contains("pw-123"), "the password is not echoed");

        KeyStore keyStore = load(out.resolve("node-1.p12"), "pw-123");
        Certificate[] chain = keyStore.getCertificateChain("node-1");
        X509Certificate node = (X509Certificate) chain[0];
        X509Certificate caCertificate = PemFiles.readCertificates(caDir.resolve("ca.crt")).get(0);
        node.verify(caCertificate.getPublicKey());
        assertEquals(caCertificate, chain[1]);
        assertEquals("CN=node-1", node.getSubjectX500Principal().getName());
        assertEquals(List.of(SERVER_AUTH, CLIENT_AUTH), node.getExtendedKeyUsage());
        assertEquals(2, node.getSubjectAlternativeNames().size());
        assertTrue(keyStore.getKey("node-1", "pw-123".toCharArray()) instanceof PrivateKey);
        assertEquals(caCertificate, load(out.resolve("truststore.p12"), "pw-123").getCertificate("ca"));
        assertEquals("rw-------", permissions(out.resolve("node-1.p12")));
    }

    @Test
    void clientWritesPemFilesWithAnEncryptedKey() throws Exception {
        Path caDir = ca();
        Path out = dir.resolve("alice");
        CliRun run = CliRun.of(CertsTool::run, "client", "--ca-dir", caDir.toString(), "--name", "alice",
                "--out-dir", out.toString(), "--format", "pem", "--key-password", "kpw-1");
        assertEquals(0, run.exitCode(), run.err());
        List<X509Certificate> chain = PemFiles.readCertificates(out.resolve("alice.crt"));
        assertEquals(2, chain.size());
        assertEquals(List.of(CLIENT_AUTH), chain.get(0).getExtendedKeyUsage());
        assertEquals(chain.subList(1, 2), PemFiles.readCertificates(out.resolve("ca.crt")));
        assertTrue(Files.readString(out.resolve("alice.key")).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        PrivateKey key = PemFiles.readPrivateKey(out.resolve("alice.key"), "kpw-1".toCharArray());
        assertEquals(key, PemFiles.readPrivateKey(out.resolve("alice.pem"), "kpw-1".toCharArray()));
        assertEquals(chain, PemFiles.readCertificates(out.resolve("alice.pem")));
        assertEquals("rw-------", permissions(out.resolve("alice.key")));
        assertEquals("rw-------", permissions(out.resolve("alice.pem")));
        assertTrue(run.out().contains("ssl.keystore.type=PEM\nssl.keystore.location=" + out.resolve("alice.pem")
                + "\nssl.key.password=<key password>\nssl.truststore.type=PEM\nssl.truststore.location="
                + out.resolve("ca.crt") + "\n"), run.out());
    }

    @Test
    void anExistingFileIsReplacedOnlyWithForce() throws IOException {
        Path caDir = ca();
        String before = Files.readString(caDir.resolve("ca.crt"));
        CliRun again = CliRun.of(CertsTool::run, "ca", "--out-dir", caDir.toString());
        assertFailedWithOneLine(again, 1, "mq-certs ca: " + caDir.resolve("ca.crt") + " exists; use --force");
        assertEquals(before, Files.readString(caDir.resolve("ca.crt")));
        CliRun forced = CliRun.of(CertsTool::run, "ca", "--out-dir", caDir.toString(), "--force");
        assertEquals(0, forced.exitCode(), forced.err());
        assertFalse(before.equals(Files.readString(caDir.resolve("ca.crt"))));
    }

    @Test
    void badInputIsOneLineAndNothingIsWritten() throws IOException {
        Path caDir = ca();
        Path out = dir.resolve("out");
        String ca = caDir.toString();
        String[] common = {"--out-dir", out.toString(), "--store-password", "pw"};
        assertFailedWithOneLine(run(common, "node", "--ca-dir", dir.resolve("nowhere").toString(), "--name", "n1",
                "--san", "DNS:localhost"), 1, "mq-certs node: cannot load the CA from ");
        assertFailedWithOneLine(run(common, "node", "--ca-dir", ca, "--name", "n1", "--san", "HOST:x"),
                1, "mq-certs node: --san 'HOST:x' is not DNS:<name> or IP:<address>");
        assertFailedWithOneLine(run(common, "node", "--ca-dir", ca, "--name", "n1", "--san", "IP:1.2.3.999"),
                1, "mq-certs node: --san '1.2.3.999' is not an IPv4 or IPv6 address");
        assertFailedWithOneLine(run(common, "client", "--ca-dir", ca, "--name", "../evil"), 1,
                "mq-certs client: --name '../evil': use 1 to 64 letters");
        assertFailedWithOneLine(run(common, "client", "--ca-dir", ca, "--name", "a", "--days", "0"), 1,
                "mq-certs client: --days must be between 1 and");
        assertFailedWithOneLine(run(new String[0], "client", "--ca-dir", ca, "--name", "a", "--out-dir",
                out.toString()), 1, "mq-certs client: --format pkcs12 needs --store-password");
        assertFailedWithOneLine(run(common, "client", "--ca-dir", ca, "--name", "a", "--key-type", "dsa"), 1,
                "mq-certs client: --key-type must be ec or rsa");
        assertFailedWithOneLine(run(common, "client", "--ca-dir", ca, "--name", "a", "--dn", "nonsense"), 1,
                "mq-certs client: --dn 'nonsense' is not a distinguished name");
        assertFalse(Files.exists(out), "nothing was written");
        assertFailedWithOneLine(run(common, "node", "--ca-dir", ca, "--name", "n1"), 2,
                "mq-certs node: Missing required option: '--san");
        assertFailedWithOneLine(run(new String[0]), 2, "mq-certs: missing command");
    }

    @Test
    void aCaKeyThatDoesNotMatchItsCertificateIsRefused() throws IOException {
        Path caDir = ca();
        Path otherDir = dir.resolve("other");
        assertEquals(0, CliRun.of(CertsTool::run, "ca", "--out-dir", otherDir.toString()).exitCode());
        Files.copy(otherDir.resolve("ca.key"), caDir.resolve("ca.key"), StandardCopyOption.REPLACE_EXISTING);
        assertFailedWithOneLine(run(new String[0], "client", "--ca-dir", caDir.toString(), "--name", "a",
                "--out-dir", dir.resolve("out").toString(), "--store-password", "pw"), 1,
                "mq-certs client: cannot load the CA");
    }

    @Test
    void aCertificateMayNotOutliveItsCa() {
        Path caDir = dir.resolve("short-ca");
        assertEquals(0, CliRun.of(CertsTool::run, "ca", "--out-dir", caDir.toString(), "--days", "2").exitCode());
        assertFailedWithOneLine(run(new String[0], "client", "--ca-dir", caDir.toString(), "--name", "a",
                "--out-dir", dir.resolve("out").toString(), "--store-password", "pw", "--days", "3"), 1,
                "mq-certs client: --days 3 would outlast the CA, which expires ");
        CliRun within = run(new String[0], "client", "--ca-dir", caDir.toString(), "--name", "a",
                "--out-dir", dir.resolve("out").toString(), "--store-password", "pw", "--days", "1");
        assertEquals(0, within.exitCode(), within.err());
    }

    @Test
    void anUnwritableOutputDirectoryIsOneLine() throws IOException {
        Path caDir = ca();
        Path blocker = Files.writeString(dir.resolve("a-file"), "x");
        assertFailedWithOneLine(run(new String[0], "client", "--ca-dir", caDir.toString(), "--name", "a",
                "--out-dir", blocker.resolve("sub").toString(), "--store-password", "pw"), 1,
                "mq-certs client: cannot create the directory " + blocker.resolve("sub"));
    }

    @Test
    void everyCommandPrintsHelp() {
        for (String[] args : new String[][] {{"--help"}, {"ca", "--help"}, {"node", "--help"}, {"client", "--help"}}) {
            CliRun run = CliRun.of(CertsTool::run, args);
            assertEquals(0, run.exitCode());
            assertTrue(run.out().startsWith("Usage: mq-certs"), run.out());
        }
    }

    /** {@code args} followed by {@code tail}. */
    private static CliRun run(String[] tail, String... args) {
        return CliRun.of(CertsTool::run, Stream.concat(Arrays.stream(args), Arrays.stream(tail)).toArray(String[]::new));
    }

    private static void assertFailedWithOneLine(CliRun run, int exitCode, String start) {
        assertEquals(exitCode, run.exitCode(), run.err());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().startsWith(start), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    private static String permissions(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }
}

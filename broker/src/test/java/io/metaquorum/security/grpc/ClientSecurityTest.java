package io.metaquorum.security.grpc;

import io.metaquorum.security.TestPki;
import io.metaquorum.security.SslConfigError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tool's {@code --command-config}: Kafka's client keys, and the mistakes that must not pass quietly. */
class ClientSecurityTest {
    @TempDir
    Path dir;

    private static Properties properties(String... pairs) {
        Properties properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    @Test
    void plaintextUnlessTheFileSaysSslAndOtherClientKeysAreIgnored() {
        assertTrue(ClientSecurity.of(properties("request.timeout.ms", "30000", "client.id", "ops")).isPlaintext());
        assertTrue(ClientSecurity.of(properties("security.protocol", "plaintext")).isPlaintext());
    }

    @Test
    void sslWithStoresThatExistMakesTlsCredentials() {
        TestPki pki = TestPki.create(dir.resolve("ca"), "ca");
        Properties ssl = properties("security.protocol", "SSL");
        TestPki.settings(pki.clientKeyStore("alice"), pki.trustStore("trust.p12")).forEach(ssl::setProperty);
        assertFalse(ClientSecurity.of(ssl).isPlaintext());
    }

    @Test
    void mistakesNameTheirKey() throws IOException {
        assertEquals("ssl.keystore.locaton", assertThrows(SslConfigError.class, () -> ClientSecurity.of(
                properties("security.protocol", "SSL", "ssl.keystore.locaton", "/k.p12"))).key(),
                "a mistyped TLS key would leave the tool without its certificate");
        assertEquals("security.protocol", assertThrows(SslConfigError.class, () -> ClientSecurity.of(
                properties("security.protocol", "SASL_SSL"))).key());
        assertEquals("security.protocol", assertThrows(SslConfigError.class, () -> ClientSecurity.of(
                properties("security.protocol", "TLS"))).key());
        assertEquals("ssl.endpoint.identification.algorithm", assertThrows(SslConfigError.class,
                () -> ClientSecurity.of(properties("security.protocol", "SSL",
                        "ssl.endpoint.identification.algorithm", ""))).key(), "host names are always checked");
        Path missing = dir.resolve("absent.properties");
        assertEquals(missing.toString(), assertThrows(SslConfigError.class, () -> ClientSecurity.load(missing)).key());
        Path noStore = Files.writeString(dir.resolve("c.properties"),
                "security.protocol=SSL\nssl.truststore.location=" + dir.resolve("nope.p12") + "\n");
        StoreLoadException e = assertThrows(StoreLoadException.class, () -> ClientSecurity.load(noStore));
        assertTrue(e.getMessage().contains("nope.p12") && e.getMessage().contains("no such file"), e.getMessage());
    }

    @Test
    void aPemKeyThatIsNotTheCertificatesIsRefusedWhenRead() {
        TestPki pki = TestPki.create(dir.resolve("ca"), "ca");
        String alice = PemExport.keyAndChain(pki.clientKeyStore("alice"), TestPki.PASSWORD, null);
        String bob = PemExport.keyAndChain(pki.clientKeyStore("bob"), TestPki.PASSWORD, null);
        Properties mixed = properties("security.protocol", "SSL", "ssl.keystore.type", "PEM",
                "ssl.keystore.key", PemExport.keyPart(alice), "ssl.keystore.certificate.chain",
                PemExport.certificatePart(bob));
        StoreLoadException e = assertThrows(StoreLoadException.class, () -> ClientSecurity.of(mixed));
        assertTrue(e.getMessage().contains("does not belong to its first certificate"), e.getMessage());
    }
}

package io.metaquorum.raft.transport.grpc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Certificates for TLS tests, made with the JDK alone (the raft module has no BouncyCastle,
 * and Netty's self-signed helper needs keytool on JDK 17): ECDSA P-256 keys and X.509 v3
 * certificates written as DER by hand. Enough of X.509 for TLS between loopback peers: a
 * CA, leaves it signs, a subject alternative name 127.0.0.1, a chosen validity.
 */
final class TestCertificates {
    private static final char[] PASSWORD = "test".toCharArray();
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";
    private static final byte[] LOOPBACK = {127, 0, 0, 1};
    private static final AtomicLong SERIALS = new AtomicLong(1);
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private TestCertificates() {
    }

    /** A key pair with its certificate, signed by {@code issuer} (itself when null). */
    record Identity(String name, KeyPair keys, X509Certificate certificate) {
        KeyManager[] keyManagers() throws GeneralSecurityException {
            try {
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                store.setKeyEntry(name, keys.getPrivate(), PASSWORD, new X509Certificate[] {certificate});
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(store, PASSWORD);
                return factory.getKeyManagers();
            } catch (java.io.IOException e) {
                throw new GeneralSecurityException(e);
            }
        }

        /**
         * Key managers that present this certificate whatever CAs the server asks for. The
         * JDK's own send no certificate when theirs is not from one of those CAs, so a test
         * of a certificate from an unknown CA needs this.
         */
        KeyManager[] keyManagersIgnoringRequestedIssuers() throws GeneralSecurityException {
            X509ExtendedKeyManager own = (X509ExtendedKeyManager) keyManagers()[0];
            return new KeyManager[] {new X509ExtendedKeyManager() {
                @Override
                public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
                    return name;
                }

                @Override
                public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
                    return name;
                }

                @Override
                public String[] getClientAliases(String keyType, Principal[] issuers) {
                    return new String[] {name};
                }

                @Override
                public String[] getServerAliases(String keyType, Principal[] issuers) {
                    return own.getServerAliases(keyType, issuers);
                }

                @Override
                public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
                    return own.chooseServerAlias(keyType, issuers, socket);
                }

                @Override
                public X509Certificate[] getCertificateChain(String alias) {
                    return new X509Certificate[] {certificate};
                }

                @Override
                public PrivateKey getPrivateKey(String alias) {
                    return keys.getPrivate();
                }
            }};
        }

        /** Trust managers that trust this certificate (as a CA). */
        TrustManager[] asTrustAnchor() throws GeneralSecurityException {
            try {
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                store.setCertificateEntry(name, certificate);
                TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                factory.init(store);
                return factory.getTrustManagers();
            } catch (java.io.IOException e) {
                throw new GeneralSecurityException(e);
            }
        }
    }

    static Identity certificateAuthority(String name) throws GeneralSecurityException {
        KeyPair keys = newKeys();
        Instant now = Instant.now();
        return new Identity(name, keys, sign(name, keys, name, keys.getPrivate(), now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(1)), true));
    }

    /** A leaf for 127.0.0.1, valid from yesterday to tomorrow. */
    static Identity leaf(String name, Identity issuer) throws GeneralSecurityException {
        Instant now = Instant.now();
        return leaf(name, issuer, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(1)));
    }

    static Identity leaf(String name, Identity issuer, Instant notBefore, Instant notAfter)
            throws GeneralSecurityException {
        KeyPair keys = newKeys();
        return new Identity(name, keys, sign(name, keys, issuer.name(), issuer.keys().getPrivate(), notBefore,
                notAfter, false));
    }

    private static KeyPair newKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(String subject, KeyPair subjectKeys, String issuer, PrivateKey issuerKey,
                                        Instant notBefore, Instant notAfter, boolean ca)
            throws GeneralSecurityException {
        byte[] algorithm = sequence(oid(ECDSA_WITH_SHA256));
        byte[] extension = ca
                ? sequence(oid(BASIC_CONSTRAINTS), tlv(0x01, new byte[] {(byte) 0xff}),
                        tlv(0x04, sequence(tlv(0x01, new byte[] {(byte) 0xff}))))
                : sequence(oid(SUBJECT_ALT_NAME), tlv(0x04, sequence(tlv(0x87, LOOPBACK),
                        tlv(0x82, "localhost".getBytes(StandardCharsets.US_ASCII)))));
        byte[] toBeSigned = sequence(
                tlv(0xa0, tlv(0x02, new byte[] {2})),
                tlv(0x02, BigInteger.valueOf(SERIALS.getAndIncrement()).toByteArray()),
                algorithm,
                name(issuer),
                sequence(utcTime(notBefore), utcTime(notAfter)),
                name(subject),
                subjectKeys.getPublic().getEncoded(),
                tlv(0xa3, sequence(extension)));
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(issuerKey);
        signer.update(toBeSigned);
        byte[] signature = signer.sign();
        byte[] bits = new byte[signature.length + 1];
        System.arraycopy(signature, 0, bits, 1, signature.length);
        byte[] der = sequence(toBeSigned, algorithm, tlv(0x03, bits));
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
    }

    private static byte[] name(String commonName) {
        return sequence(tlv(0x31, sequence(oid(COMMON_NAME), tlv(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
    }

    private static byte[] utcTime(Instant instant) {
        return tlv(0x17, UTC_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
            for (int g = groups - 1; g >= 0; g--) {
                out.write((int) ((arc >>> (7 * g)) & 0x7f) | (g == 0 ? 0 : 0x80));
            }
        }
        return tlv(0x06, out.toByteArray());
    }

    private static byte[] sequence(byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            content.writeBytes(part);
        }
        return tlv(0x30, content.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else {
            out.write(0x82);
            out.write(length >> 8);
            out.write(length & 0xff);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}

package io.metaquorum.raft.transport.grpc.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.netty.shaded.io.netty.handler.ssl.NotSslRecordException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** The reason named for each way a connection can fail before gRPC calls it ready. */
class RefusalClassifierTest {
    private static final byte[] CLIENT_HELLO = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01};

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static SSLHandshakeException handshake(String message, Throwable cause) {
        SSLHandshakeException failure = new SSLHandshakeException(message);
        failure.initCause(cause);
        return failure;
    }

    @Test
    void onAPlaintextPortTheFirstBytesTellGarbageHttp1TlsAndAnIncompleteHttp2Handshake() {
        assertEquals(RefusalReason.NOT_HTTP2, RefusalClassifier.onPlaintextPort(new byte[] {(byte) 0x8a, 0x3f}).reason());
        assertEquals(RefusalReason.NOT_HTTP2, RefusalClassifier.onPlaintextPort(ascii("GET / HTTP/1.1\r\n")).reason());
        assertEquals(RefusalReason.TLS_ON_PLAINTEXT_PORT, RefusalClassifier.onPlaintextPort(CLIENT_HELLO).reason());
        assertEquals(RefusalReason.HTTP2_HANDSHAKE_INCOMPLETE,
                RefusalClassifier.onPlaintextPort(RefusalClassifier.HTTP2_PREFACE).reason());
        assertEquals(RefusalReason.HTTP2_HANDSHAKE_INCOMPLETE, RefusalClassifier.onPlaintextPort(ascii("PRI * H")).reason());
        assertEquals(RefusalReason.NOT_HTTP2, RefusalClassifier.onPlaintextPort(ascii("PRI * HTTP/1.1")).reason());
    }

    @Test
    void plaintextOnATlsPortIsNamedByNettysNotSslRecordOrByTheFirstBytes() {
        assertEquals(RefusalReason.PLAINTEXT_ON_TLS_PORT, RefusalClassifier.onTlsFailure(
                new NotSslRecordException("not an SSL/TLS record: 505249"), RefusalClassifier.HTTP2_PREFACE).reason());
        assertEquals(RefusalReason.PLAINTEXT_ON_TLS_PORT, RefusalClassifier.onTlsFailure(
                new SSLHandshakeException("whatever"), ascii("GET / HTTP/1.1")).reason());
    }

    @Test
    void certificateValidityAndTrustAreNamedByTheTrustManagersExceptionTypes() {
        Throwable expired = handshake("PKIX path validation failed",
                new CertPathValidatorException("validity check failed", new CertificateExpiredException("NotAfter")));
        assertEquals(RefusalReason.CERTIFICATE_EXPIRED, RefusalClassifier.onTlsFailure(expired, CLIENT_HELLO).reason());

        Throwable early = handshake("x", new CertificateNotYetValidException("NotBefore"));
        assertEquals(RefusalReason.CERTIFICATE_NOT_YET_VALID, RefusalClassifier.onTlsFailure(early, CLIENT_HELLO).reason());

        Throwable unknownCa = handshake("PKIX path building failed", new CertificateException(
                new CertPathBuilderException("unable to find valid certification path to requested target")));
        assertEquals(RefusalReason.UNKNOWN_CA, RefusalClassifier.onTlsFailure(unknownCa, CLIENT_HELLO).reason());

        Throwable revoked = handshake("x", new CertPathValidatorException("Certificate has been revoked"));
        Refusal invalid = RefusalClassifier.onTlsFailure(revoked, CLIENT_HELLO);
        assertEquals(RefusalReason.CERTIFICATE_INVALID, invalid.reason());
        assertEquals("CertPathValidatorException: Certificate has been revoked", invalid.detail());
    }

    @Test
    void aMissingClientCertificateIsNamedFromBoringSslOrJdkMessages() {
        assertEquals(RefusalReason.NO_CLIENT_CERTIFICATE, RefusalClassifier.onTlsFailure(new SSLHandshakeException(
                "error:10000412:SSL routines:OPENSSL_internal:PEER_DID_NOT_RETURN_A_CERTIFICATE"), CLIENT_HELLO).reason());
        assertEquals(RefusalReason.NO_CLIENT_CERTIFICATE, RefusalClassifier.onTlsFailure(
                new SSLHandshakeException("Empty client certificate chain"), CLIENT_HELLO).reason());
    }

    @Test
    void aClientThatDistrustsThisNodeIsNamedFromTheAlertItSent() {
        assertEquals(RefusalReason.SERVER_CERTIFICATE_REFUSED, RefusalClassifier.onTlsFailure(new SSLHandshakeException(
                "error:10000418:SSL routines:OPENSSL_internal:TLSV1_ALERT_UNKNOWN_CA"), CLIENT_HELLO).reason());
        assertEquals(RefusalReason.SERVER_CERTIFICATE_REFUSED, RefusalClassifier.onTlsFailure(
                new SSLHandshakeException("Received fatal alert: certificate_unknown"), CLIENT_HELLO).reason());
    }

    @Test
    void aConnectionLostMidHandshakeIsNotATlsError() {
        assertEquals(RefusalReason.CLOSED_DURING_TLS_HANDSHAKE,
                RefusalClassifier.onTlsFailure(new ClosedChannelException(), CLIENT_HELLO).reason());
        assertEquals(RefusalReason.CLOSED_DURING_TLS_HANDSHAKE, RefusalClassifier.onTlsFailure(
                new SSLHandshakeException("Connection closed while SSL/TLS handshake was in progress"),
                CLIENT_HELLO).reason());
        // What a node logged when a tool's DescribeQuorum gave up on it mid-handshake during a start.
        assertEquals(RefusalReason.CLOSED_DURING_TLS_HANDSHAKE, RefusalClassifier.onTlsFailure(
                new javax.net.ssl.SSLException("bad record", new javax.crypto.BadPaddingException(
                        "Insufficient buffer remaining for AEAD cipher fragment (2). Needs to be more than tag size (16)")),
                CLIENT_HELLO).reason());
    }

    @Test
    void anythingElseIsAFailedHandshakeWithItsRootCauseOnOneLine() {
        Refusal refusal = RefusalClassifier.onTlsFailure(handshake("outer",
                new SSLHandshakeException("no cipher suites in common\n\tat forged.Frame(Forged.java:1)")), CLIENT_HELLO);

        assertEquals(RefusalReason.TLS_HANDSHAKE_FAILED, refusal.reason());
        assertEquals("TLS handshake failed (SSLHandshakeException: no cipher suites in common  at forged.Frame(Forged.java:1))",
                refusal.text());
        assertFalse(refusal.text().contains("\n"));
    }

    @Test
    void aTlsRecordHeaderIsRecognizedFromItsFirstByteOrTwo() {
        assertTrue(RefusalClassifier.looksLikeTls(CLIENT_HELLO));
        assertTrue(RefusalClassifier.looksLikeTls(new byte[] {0x16}));
        assertFalse(RefusalClassifier.looksLikeTls(new byte[] {0x16, 0x04}));
        assertFalse(RefusalClassifier.looksLikeTls(new byte[0]));
    }
}

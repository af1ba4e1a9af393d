package io.metaquorum.raft.transport.grpc.logging;

import io.grpc.netty.shaded.io.netty.handler.ssl.NotSslRecordException;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Predicate;
import javax.net.ssl.SSLException;

/**
 * Names why a connection ended before gRPC called it ready, from what is left when it closes:
 * the first bytes the client sent, and on a TLS port the TLS handler's handshake outcome.
 *
 * <p>Certificate problems are found by exception type where the JDK gives one (the trust
 * manager's {@code CertificateExpiredException}, a {@code CertPathBuilderException} for an
 * unknown CA). Where only a message exists, both TLS engines gRPC may use are matched:
 * BoringSSL's error names ({@code PEER_DID_NOT_RETURN_A_CERTIFICATE},
 * {@code TLSV1_ALERT_UNKNOWN_CA}) and the JDK's messages ({@code Empty client certificate
 * chain}, {@code Received fatal alert: certificate_unknown}). Anything else is
 * {@link RefusalReason#TLS_HANDSHAKE_FAILED} with the root cause as detail.
 */
public final class RefusalClassifier {
    /** The HTTP/2 client connection preface (RFC 9113 section 3.4). */
    static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A TLS record of type handshake starts with this byte, then the major version 3. */
    private static final byte TLS_HANDSHAKE_RECORD = 0x16;
    private static final byte TLS_MAJOR_VERSION = 0x03;

    private RefusalClassifier() {
    }

    /**
     * @param tlsPort    whether the server expects TLS on this connection
     * @param firstBytes the start of the client's first read, not empty
     * @param ssl        the connection's TLS handler; null on a plaintext port
     */
    public static Refusal classify(boolean tlsPort, byte[] firstBytes, SslHandler ssl) {
        if (!tlsPort) {
            return onPlaintextPort(firstBytes);
        }
        if (ssl == null || !ssl.handshakeFuture().isDone()) {
            return looksLikeTls(firstBytes) ? new Refusal(RefusalReason.CLOSED_DURING_TLS_HANDSHAKE)
                    : new Refusal(RefusalReason.PLAINTEXT_ON_TLS_PORT);
        }
        if (ssl.handshakeFuture().isSuccess()) {
            return "h2".equals(ssl.applicationProtocol()) ? new Refusal(RefusalReason.NO_GRPC_AFTER_TLS)
                    : new Refusal(RefusalReason.NO_HTTP2_OVER_TLS);
        }
        return onTlsFailure(ssl.handshakeFuture().cause(), firstBytes);
    }

    static Refusal onPlaintextPort(byte[] firstBytes) {
        if (looksLikeTls(firstBytes)) {
            return new Refusal(RefusalReason.TLS_ON_PLAINTEXT_PORT);
        }
        int compared = Math.min(firstBytes.length, HTTP2_PREFACE.length);
        if (Arrays.equals(firstBytes, 0, compared, HTTP2_PREFACE, 0, compared)) {
            return new Refusal(RefusalReason.HTTP2_HANDSHAKE_INCOMPLETE);
        }
        return new Refusal(RefusalReason.NOT_HTTP2);
    }

    /** Why a TLS handshake failed, from its exception chain. */
    static Refusal onTlsFailure(Throwable cause, byte[] firstBytes) {
        if (any(cause, NotSslRecordException.class::isInstance) || !looksLikeTls(firstBytes)) {
            return new Refusal(RefusalReason.PLAINTEXT_ON_TLS_PORT);
        }
        if (any(cause, CertificateExpiredException.class::isInstance)) {
            return new Refusal(RefusalReason.CERTIFICATE_EXPIRED);
        }
        if (any(cause, CertificateNotYetValidException.class::isInstance)) {
            return new Refusal(RefusalReason.CERTIFICATE_NOT_YET_VALID);
        }
        if (any(cause, CertPathBuilderException.class::isInstance)) {
            return new Refusal(RefusalReason.UNKNOWN_CA);
        }
        if (any(cause, mentions("PEER_DID_NOT_RETURN_A_CERTIFICATE", "EMPTY CLIENT CERTIFICATE CHAIN",
                "NULL CERT CHAIN"))) {
            return new Refusal(RefusalReason.NO_CLIENT_CERTIFICATE);
        }
        String detail = OneLine.describe(OneLine.rootCause(cause));
        if (any(cause, CertPathValidatorException.class::isInstance)
                || any(cause, mentions("CERTIFICATE_VERIFY_FAILED"))) {
            return new Refusal(RefusalReason.CERTIFICATE_INVALID, detail);
        }
        if (any(cause, mentions("ALERT_UNKNOWN_CA", "ALERT_CERTIFICATE_UNKNOWN", "ALERT_BAD_CERTIFICATE",
                "FATAL ALERT: CERTIFICATE_UNKNOWN", "FATAL ALERT: UNKNOWN_CA", "FATAL ALERT: BAD_CERTIFICATE"))) {
            return new Refusal(RefusalReason.SERVER_CERTIFICATE_REFUSED);
        }
        // A client that abandons its handshake (its call's deadline passed while a cold node was still
        // answering) sends a plaintext alert the JDK engine, already on the handshake keys, cannot
        // decrypt: a 2-byte "cipher fragment".
        if (any(cause, RefusalClassifier::isConnectionLoss) || any(cause, mentions("CLOSED WHILE", "CONNECTION CLOSED",
                "INSUFFICIENT BUFFER REMAINING FOR AEAD CIPHER FRAGMENT"))) {
            return new Refusal(RefusalReason.CLOSED_DURING_TLS_HANDSHAKE, detail);
        }
        return new Refusal(RefusalReason.TLS_HANDSHAKE_FAILED, detail);
    }

    /** The socket closed or reset under the handshake (an SSLException is an IOException too, and is not this). */
    private static boolean isConnectionLoss(Throwable thrown) {
        return thrown instanceof ClosedChannelException || thrown instanceof IOException && !(thrown instanceof SSLException);
    }

    static boolean looksLikeTls(byte[] firstBytes) {
        return firstBytes.length > 0 && firstBytes[0] == TLS_HANDSHAKE_RECORD
                && (firstBytes.length == 1 || firstBytes[1] == TLS_MAJOR_VERSION);
    }

    /** Whether anything in the cause chain (bounded) matches. */
    private static boolean any(Throwable thrown, Predicate<Throwable> test) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < OneLine.CAUSE_DEPTH_MAX; depth++) {
            if (test.test(current)) {
                return true;
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        return false;
    }

    private static Predicate<Throwable> mentions(String... upperCaseFragments) {
        return thrown -> {
            String message = thrown.getMessage() == null ? "" : thrown.getMessage().toUpperCase(Locale.ROOT);
            return Arrays.stream(upperCaseFragments).anyMatch(message::contains);
        };
    }
}

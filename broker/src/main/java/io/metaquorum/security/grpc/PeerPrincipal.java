package io.metaquorum.security.grpc;

import io.metaquorum.security.Principal;
import io.metaquorum.security.PrincipalMappingException;
import io.metaquorum.security.SslPrincipalMapping;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * A TLS connection's principal: its client certificate's subject after
 * {@code ssl.principal.mapping.rules}, or {@code User:ANONYMOUS} without a certificate (or
 * without TLS). One rule for every listener, gRPC or Kafka-protocol.
 */
public final class PeerPrincipal {
    private PeerPrincipal() {
    }

    /**
     * The principal of {@code session} (null: a plaintext connection). Throws
     * {@link PrincipalMappingException} when no rule maps the certificate's subject.
     */
    public static Principal of(SSLSession session, SslPrincipalMapping mapping) {
        if (session == null) {
            return Principal.ANONYMOUS;
        }
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            // ssl.client.auth=requested or none, and the client sent no certificate.
            return Principal.ANONYMOUS;
        }
        X509Certificate leaf = (X509Certificate) chain[0];
        return mapping.principal(leaf.getSubjectX500Principal().getName());
    }
}

package io.metaquorum.security.certs;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A certificate with its private key. {@code chain} starts with {@code certificate} and ends
 * with the issuing CA's certificate: what a TLS peer sends so the other side can build the path
 * to the CA it trusts.
 */
public record IssuedCertificate(X509Certificate certificate, List<X509Certificate> chain, PrivateKey key) {
    public IssuedCertificate {
        chain = List.copyOf(chain);
        if (chain.isEmpty() || !chain.get(0).equals(certificate)) {
            throw new IllegalArgumentException("the chain must start with the certificate itself");
        }
    }
}

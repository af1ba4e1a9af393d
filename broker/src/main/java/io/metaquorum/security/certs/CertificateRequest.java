package io.metaquorum.security.certs;

import java.util.List;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * What to put in an end-entity certificate that a {@link CertificateAuthority} issues. The
 * key pair is made fresh for each certificate, of {@code keyType}.
 */
public record CertificateRequest(X500Principal subject, List<SubjectAltName> subjectAltNames,
                                 CertificatePurpose purpose, KeyType keyType, Validity validity) {
    public CertificateRequest {
        subjectAltNames = List.copyOf(subjectAltNames);
    }

    /** A node's certificate: {@code CN=name}, server and client use, the names peers dial it by. */
    public static CertificateRequest node(String name, List<SubjectAltName> subjectAltNames, Validity validity) {
        return new CertificateRequest(subject(name, ""), subjectAltNames, CertificatePurpose.NODE, KeyType.EC,
                validity);
    }

    /** A client's certificate: {@code CN=name}, client use only; nobody dials a client, so no names. */
    public static CertificateRequest client(String name, Validity validity) {
        return new CertificateRequest(subject(name, ""), List.of(), CertificatePurpose.CLIENT, KeyType.EC, validity);
    }

    public CertificateRequest withKeyType(KeyType type) {
        return new CertificateRequest(subject, subjectAltNames, purpose, type, validity);
    }

    public CertificateRequest withSubject(X500Principal name) {
        return new CertificateRequest(name, subjectAltNames, purpose, keyType, validity);
    }

    /**
     * {@code CN=commonName} followed by {@code extraDn} (RFC 2253, e.g. {@code OU=brokers,O=acme},
     * or empty). The common name is escaped, so a comma in it stays part of the name. Parsed by
     * the JDK so that the encoded order is the usual one and {@code getName()} reads back as written,
     * which is the principal Kafka-style ACLs match.
     *
     * @throws IllegalArgumentException when {@code extraDn} is not a distinguished name
     */
    public static X500Principal subject(String commonName, String extraDn) {
        if (commonName.isBlank()) {
            throw new IllegalArgumentException("the common name is empty");
        }
        String dn = "CN=" + Rdn.escapeValue(commonName) + (extraDn.isBlank() ? "" : "," + extraDn.strip());
        try {
            return new X500Principal(dn);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + extraDn + "' is not a distinguished name such as OU=brokers,O=acme",
                    e);
        }
    }
}

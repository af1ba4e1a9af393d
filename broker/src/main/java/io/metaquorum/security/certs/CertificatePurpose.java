package io.metaquorum.security.certs;

import java.util.List;
import org.bouncycastle.asn1.x509.KeyPurposeId;

/** What an end-entity certificate may be used for, as its extendedKeyUsage says. */
public enum CertificatePurpose {
    /** A node serves its peers and dials them, so its one certificate does both. */
    NODE(List.of(KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth)),
    /** An admin or application client only dials. */
    CLIENT(List.of(KeyPurposeId.id_kp_clientAuth));

    private final List<KeyPurposeId> keyPurposes;

    CertificatePurpose(List<KeyPurposeId> keyPurposes) {
        this.keyPurposes = keyPurposes;
    }

    KeyPurposeId[] keyPurposes() {
        return keyPurposes.toArray(KeyPurposeId[]::new);
    }
}

package io.metaquorum.security.certs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.util.IPAddress;

/**
 * One subjectAltName entry: a DNS name or an IP address, written {@code DNS:localhost} or
 * {@code IP:127.0.0.1} as openssl and keytool do. TLS clients check the host they dialled
 * against these entries, not against the CN.
 */
public record SubjectAltName(Kind kind, String value) {
    public enum Kind { DNS, IP }

    /** Labels of letters, digits and hyphens; a leading {@code *.} for a wildcard. */
    private static final Pattern DNS_NAME = Pattern.compile(
            "(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");
    private static final int DNS_NAME_LENGTH_MAX = 253;

    public SubjectAltName {
        switch (kind) {
            case DNS -> {
                if (value.length() > DNS_NAME_LENGTH_MAX || !DNS_NAME.matcher(value).matches()) {
                    throw new IllegalArgumentException("'" + value + "' is not a DNS name");
                }
            }
            case IP -> {
                // Parsed without a lookup: IPAddress checks the literal form only.
                if (!IPAddress.isValid(value)) {
                    throw new IllegalArgumentException("'" + value + "' is not an IPv4 or IPv6 address");
                }
            }
        }
    }

    public static SubjectAltName dns(String name) {
        return new SubjectAltName(Kind.DNS, name);
    }

    public static SubjectAltName ip(String address) {
        return new SubjectAltName(Kind.IP, address);
    }

    /** {@code DNS:name} or {@code IP:address}; the prefix in any case. */
    public static SubjectAltName parse(String entry) {
        int colon = entry.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("'" + entry + "' is not DNS:<name> or IP:<address>");
        }
        String prefix = entry.substring(0, colon).strip().toUpperCase(Locale.ROOT);
        String value = entry.substring(colon + 1).strip();
        return switch (prefix) {
            case "DNS" -> dns(value);
            case "IP" -> ip(value);
            default -> throw new IllegalArgumentException("'" + entry + "' is not DNS:<name> or IP:<address>");
        };
    }

    /** A comma-separated list, as in {@code DNS:localhost,IP:127.0.0.1}. */
    public static List<SubjectAltName> parseList(String entries) {
        List<SubjectAltName> names = new ArrayList<>();
        for (String entry : entries.split(",", -1)) {
            names.add(parse(entry.strip()));
        }
        return List.copyOf(names);
    }

    GeneralName toGeneralName() {
        return new GeneralName(kind == Kind.DNS ? GeneralName.dNSName : GeneralName.iPAddress, value);
    }

    @Override
    public String toString() {
        return kind + ":" + value;
    }
}

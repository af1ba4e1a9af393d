package io.metaquorum.metadata.image;

import java.util.Arrays;

/**
 * An ACL host written as a CIDR range ({@code 10.0.0.0/24}, {@code fe80::/10}), which Kafka
 * 4.4.0's authorizer matches beside {@code *} and the exact address ({@code CidrUtils
 * .isInRange}): a host is in the range when its first {@code prefix} bits are the range's. IPv4
 * ranges take IPv4 hosts (four decimal parts of one to three digits up to 255, a prefix of one
 * or two digits up to 32); IPv6 ranges take IPv6 hosts (hex groups, one {@code ::}, an IPv4
 * tail, a prefix up to 128). Anything else, or a host of the other family, is not in range.
 * Parsed by hand: this package is deterministic and stays off {@code java.net}.
 */
final class HostRange {
    private HostRange() {
    }

    /** Whether {@code host} (an address as the client's connection prints it) is in the range {@code cidr}. */
    static boolean contains(String cidr, String host) {
        int slash = cidr.indexOf('/');
        if (slash < 0 || cidr.indexOf('/', slash + 1) >= 0) {
            return false;
        }
        String prefixText = cidr.substring(slash + 1);
        String address = cidr.substring(0, slash);
        boolean v6 = cidr.contains(":");
        int prefix = decimal(prefixText, v6 ? 3 : 2);
        byte[] range = v6 ? ipv6(address) : ipv4(address);
        byte[] bytes = v6 ? ipv6(host) : ipv4(host);
        if (prefix < 0 || range == null || bytes == null || prefix > range.length * 8) {
            return false;
        }
        for (int bit = 0; bit < prefix; bit++) {
            int mask = 0x80 >>> (bit % 8);
            if ((range[bit / 8] & mask) != (bytes[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** A decimal of one to {@code digitsMax} digits, or -1. */
    private static int decimal(String text, int digitsMax) {
        if (text.isEmpty() || text.length() > digitsMax) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static byte[] ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            int part = decimal(parts[i], 3);
            if (part < 0 || part > 255) {
                return null;
            }
            bytes[i] = (byte) part;
        }
        return bytes;
    }

    private static byte[] ipv6(String text) {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        byte[] head = gap < 0 ? groups(text, true) : groups(text.substring(0, gap), false);
        byte[] tail = gap < 0 ? new byte[0] : groups(text.substring(gap + 2), true);
        if (head == null || tail == null || head.length + tail.length > 16 || gap < 0 && head.length != 16
                || gap >= 0 && head.length + tail.length > 14) {
            return null;
        }
        byte[] bytes = new byte[16];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(tail, 0, bytes, 16 - tail.length, tail.length);
        return bytes;
    }

    /** Colon-separated hex groups (the last may be a dotted IPv4 address when {@code ipv4Tail}); "" is none. */
    private static byte[] groups(String text, boolean ipv4Tail) {
        if (text.isEmpty()) {
            return new byte[0];
        }
        String[] parts = text.split(":", -1);
        byte[] bytes = new byte[parts.length * 2 + 2];
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            if (ipv4Tail && i == parts.length - 1 && parts[i].contains(".")) {
                byte[] v4 = ipv4(parts[i]);
                if (v4 == null) {
                    return null;
                }
                System.arraycopy(v4, 0, bytes, length, 4);
                length += 4;
                continue;
            }
            int group = hex(parts[i]);
            if (group < 0) {
                return null;
            }
            bytes[length++] = (byte) (group >>> 8);
            bytes[length++] = (byte) group;
        }
        return Arrays.copyOf(bytes, length);
    }

    private static int hex(String text) {
        if (text.isEmpty() || text.length() > 4) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }
}

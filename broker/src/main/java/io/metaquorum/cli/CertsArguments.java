package io.metaquorum.cli;

import io.metaquorum.security.certs.KeyType;
import io.metaquorum.security.certs.Validity;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Pattern;

/** The checks on mq-certs' option values, made before anything is generated or written. */
final class CertsArguments {
    /**
     * A certificate's name is also its files' name, so it stays a plain file name; 64 is
     * RFC 5280's upper bound for a common name.
     */
    private static final Pattern FILE_SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    static final int DAYS_MAX = 36_500;

    private CertsArguments() {
    }

    static String fileSafeName(String name) {
        if (!FILE_SAFE_NAME.matcher(name).matches()) {
            throw new CommandFailure("--name '" + name + "': use 1 to 64 letters, digits, '.', '_' or '-', "
                    + "starting with a letter or digit (it names the files too)");
        }
        return name;
    }

    static Validity days(int days) {
        if (days < 1 || days > DAYS_MAX) {
            throw new CommandFailure("--days must be between 1 and " + DAYS_MAX + ", got " + days);
        }
        return Validity.days(Instant.now(), days);
    }

    static KeyType keyType(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "ec" -> KeyType.EC;
            case "rsa" -> KeyType.RSA;
            default -> throw new CommandFailure("--key-type must be ec or rsa, got '" + value + "'");
        };
    }

    /** Null when no password was given, so that the PEM key is written unencrypted. */
    static char[] password(String value, String option) {
        if (value == null) {
            return null;
        }
        if (value.isEmpty()) {
            throw new CommandFailure(option + " is empty; leave it out instead");
        }
        return value.toCharArray();
    }
}

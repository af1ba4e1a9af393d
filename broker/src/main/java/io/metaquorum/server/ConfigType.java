package io.metaquorum.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The value types of configuration keys, each with its parser. A parser returns the typed
 * value or throws {@link ConfigException} naming the key and what was expected.
 */
public enum ConfigType {
    STRING,
    /** A 32-bit integer. */
    INT,
    /** A 64-bit integer. */
    LONG,
    /** {@code true} or {@code false}, case-insensitive, nothing else. */
    BOOLEAN,
    /** Comma-separated, blanks trimmed, empty entries dropped. */
    LIST,
    /** A fully qualified Java class name (checked for shape only). */
    CLASS,
    /** One of {@code none}, {@code requested}, {@code required}. */
    SSL_CLIENT_AUTH,
    /** A keystore or truststore type: {@code JKS}, {@code PKCS12} or {@code PEM}. */
    STORE_TYPE;

    public Object parse(String key, String text) {
        return switch (this) {
            case STRING -> text;
            case INT -> parseInt(key, text);
            case LONG -> parseLong(key, text);
            case BOOLEAN -> parseBoolean(key, text);
            case LIST -> parseList(text);
            case CLASS -> parseClassName(key, text);
            case SSL_CLIENT_AUTH -> oneOf(key, text.toLowerCase(Locale.ROOT), List.of("none", "requested", "required"));
            case STORE_TYPE -> oneOf(key, text.toUpperCase(Locale.ROOT), List.of("JKS", "PKCS12", "PEM"));
        };
    }

    private static Integer parseInt(String key, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ConfigException(key, "expected an integer, got '" + text + "'");
        }
    }

    private static Long parseLong(String key, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConfigException(key, "expected a long integer, got '" + text + "'");
        }
    }

    private static Boolean parseBoolean(String key, String text) {
        if (text.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        if (text.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
        }
        throw new ConfigException(key, "expected true or false, got '" + text + "'");
    }

    private static List<String> parseList(String text) {
        List<String> items = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return List.copyOf(items);
    }

    private static String parseClassName(String key, String text) {
        if (!text.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*")) {
            throw new ConfigException(key, "expected a fully qualified class name, got '" + text + "'");
        }
        return text;
    }

    private static String oneOf(String key, String text, List<String> allowed) {
        if (!allowed.contains(text)) {
            throw new ConfigException(key, "expected one of " + allowed + ", got '" + text + "'");
        }
        return text;
    }
}

package io.metaquorum.cli;

import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --add-config k=v,k2=v2} as kafka-configs.sh reads it: entries split at commas
 * outside square brackets, a bracketed value ({@code k=[a,b]}) kept without its brackets.
 */
final class ConfigEntries {
    private ConfigEntries() {
    }

    /** Every entry of every {@code --add-config} value, in order; a malformed or repeated key is INVALID_CONFIG. */
    static Map<String, String> parse(List<String> values) {
        Map<String, String> configs = new LinkedHashMap<>();
        for (String value : values) {
            for (String entry : split(value)) {
                int equals = entry.indexOf('=');
                if (equals <= 0 || entry.substring(0, equals).isBlank()) {
                    throw new AdminError(ErrorCode.INVALID_CONFIG, "Invalid config entry '" + entry
                            + "': expected key=value.");
                }
                String key = entry.substring(0, equals).trim();
                String text = entry.substring(equals + 1);
                if (text.startsWith("[") && text.endsWith("]")) {
                    text = text.substring(1, text.length() - 1);
                }
                if (configs.put(key, text) != null) {
                    throw new AdminError(ErrorCode.INVALID_CONFIG, "Config '" + key + "' is given twice.");
                }
            }
        }
        return configs;
    }

    private static List<String> split(String value) {
        List<String> entries = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth = Math.max(0, depth - 1);
            } else if (c == ',' && depth == 0) {
                entries.add(value.substring(start, i));
                start = i + 1;
            }
        }
        entries.add(value.substring(start));
        if (depth != 0) {
            throw new AdminError(ErrorCode.INVALID_CONFIG, "Unbalanced '[' in --add-config '" + value + "'.");
        }
        return entries.stream().filter(entry -> !entry.isBlank()).toList();
    }
}

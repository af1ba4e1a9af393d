package io.metaquorum.cli;

/** The few JSON pieces the tools print by hand (one object per output, no library). */
final class JsonText {
    private JsonText() {
    }

    /** {@code value} as a JSON string, or {@code null}. */
    static String string(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder text = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                default -> {
                    if (c < 0x20) {
                        text.append(String.format("\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
                }
            }
        }
        return text.append('"').toString();
    }

    /** {@code [1,2,3]}, as docs/commands.md writes id lists. */
    static String ints(Iterable<Integer> values) {
        StringBuilder text = new StringBuilder("[");
        for (Integer value : values) {
            if (text.length() > 1) {
                text.append(',');
            }
            text.append(value);
        }
        return text.append(']').toString();
    }
}

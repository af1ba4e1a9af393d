package io.metaquorum.raft.transport.grpc.logging;

/**
 * Text from outside (an exception message that quotes received bytes, a peer's alert) made
 * safe for one log line: control characters become spaces and the length is capped, so a
 * message cannot forge or flood lines.
 */
final class OneLine {
    static final int CHARS_MAX = 300;
    /** Cause chains are short; a longer (or cyclic) one is cut here. */
    static final int CAUSE_DEPTH_MAX = 16;

    private OneLine() {
    }

    static String of(String text) {
        if (text == null) {
            return "";
        }
        int length = Math.min(text.length(), CHARS_MAX);
        StringBuilder line = new StringBuilder(length + 3);
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            line.append(Character.isISOControl(c) ? ' ' : c);
        }
        if (text.length() > CHARS_MAX) {
            line.append("...");
        }
        return line.toString().strip();
    }

    /** The last throwable of the cause chain (bounded: a cycle ends the walk). */
    static Throwable rootCause(Throwable thrown) {
        Throwable root = thrown;
        for (int depth = 0; depth < CAUSE_DEPTH_MAX && root.getCause() != null && root.getCause() != root; depth++) {
            root = root.getCause();
        }
        return root;
    }

    /** {@code SSLHandshakeException: message}, the class's simple name and its message on one line. */
    static String describe(Throwable thrown) {
        String message = of(thrown.getMessage());
        return message.isEmpty() ? thrown.getClass().getSimpleName() : thrown.getClass().getSimpleName() + ": " + message;
    }
}

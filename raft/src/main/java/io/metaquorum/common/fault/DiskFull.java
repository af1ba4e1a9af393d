package io.metaquorum.common.fault;

import java.util.Optional;

/**
 * Recognizes a full disk (ENOSPC) among the causes of a failure, so that a node can say so in
 * one line instead of a stack trace: the cause and the path are all an operator needs, and the
 * remedy (free space, restart) is the same wherever the write failed.
 *
 * <p>Recognized by the operating system's text for ENOSPC, which both RocksDB (its
 * {@code IOError(NoSpace)} statuses carry it) and the JDK's file channels pass on in their
 * messages: the JDK has no errno to test instead. The text is the C library's English one; a
 * process started with another {@code LC_MESSAGES} language gets the ordinary fault line with
 * its stack trace, which still names the cause.
 */
public final class DiskFull {
    /** What strerror(ENOSPC) says in glibc and musl. */
    public static final String ENOSPC_TEXT = "No space left on device";

    private DiskFull() {
    }

    /** The message of the first cause in {@code failure}'s chain that says the disk is full; empty if none does. */
    public static Optional<String> cause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.contains(ENOSPC_TEXT)) {
                return Optional.of(message);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code failure} or one of its causes says the disk is full. */
    public static boolean isCause(Throwable failure) {
        return cause(failure).isPresent();
    }

    /**
     * The one line a node logs when {@code failure}, a full disk, stops it: {@code context}
     * (what stopped, with the node's prefix), then each message of the cause chain that the line
     * does not hold yet (so the path, wherever in the chain it is named), and the remedy.
     */
    public static String stopLine(String context, Throwable failure) {
        StringBuilder line = new StringBuilder(context);
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && !message.isBlank() && line.indexOf(message) < 0) {
                line.append(": ").append(message);
            }
        }
        return line.toString().strip().replaceAll("\\s*\\R\\s*", "; ")
                + " -- the disk is full: free space on it and restart the node; it recovers what it had"
                + " from its log and catches up from the quorum";
    }
}

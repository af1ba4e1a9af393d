package io.metaquorum.metadata.log.rocksdb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the output of {@code strace -f -tt -y -o FILE}: one call per line,
 * {@code PID HH:MM:SS.micros name(arguments) = result}, except that a call interrupted in the
 * trace by another thread's is printed as {@code name(arguments <unfinished ...>} and later
 * {@code <... name resumed>rest) = result}; the two halves are joined into one
 * {@link TracedCall}. Signal and exit lines are skipped. Lines count from 1.
 */
final class SyscallTrace {
    private static final Pattern LINE =
            Pattern.compile("^(?:\\[pid\\s+)?(\\d+)\\]?\\s+\\d{2}:\\d{2}:\\d{2}\\.\\d+\\s+(.*)$");
    private static final Pattern CALL = Pattern.compile("^([a-z0-9_]+)\\((.*)$");
    private static final Pattern RESUMED = Pattern.compile("^<\\.\\.\\. ([a-z0-9_]+) resumed>(.*)$");
    private static final String UNFINISHED = " <unfinished ...>";
    private static final String RETURNS = ") = ";

    private SyscallTrace() {
    }

    static List<TracedCall> parse(List<String> lines) {
        List<TracedCall> calls = new ArrayList<>();
        Map<String, Started> unfinishedByThread = new HashMap<>();
        for (int index = 0; index < lines.size(); index++) {
            int lineNumber = index + 1;
            Matcher line = LINE.matcher(lines.get(index));
            if (!line.matches()) {
                continue;
            }
            String thread = line.group(1);
            String text = line.group(2);
            Matcher resumed = RESUMED.matcher(text);
            Matcher call = CALL.matcher(text);
            if (resumed.matches()) {
                Started started = unfinishedByThread.remove(thread);
                if (started != null && started.name.equals(resumed.group(1))) {
                    calls.add(finish(started.line, lineNumber, started.name, started.arguments + resumed.group(2)));
                }
            } else if (call.matches() && text.endsWith(UNFINISHED)) {
                String arguments = call.group(2);
                unfinishedByThread.put(thread, new Started(lineNumber, call.group(1),
                        arguments.substring(0, arguments.length() - UNFINISHED.length())));
            } else if (call.matches()) {
                calls.add(finish(lineNumber, lineNumber, call.group(1), call.group(2)));
            }
        }
        return calls;
    }

    /** {@code body} is the arguments, then {@code ") = "} and the result, e.g. {@code -1 EIO (Input/output error)}. */
    private static TracedCall finish(int startLine, int endLine, String name, String body) {
        int returns = body.lastIndexOf(RETURNS);
        if (returns < 0) {
            return new TracedCall(startLine, endLine, name, body, -1);
        }
        String result = body.substring(returns + RETURNS.length()).split(" ", 2)[0];
        long value;
        try {
            value = Long.decode(result);
        } catch (NumberFormatException e) {
            value = -1;
        }
        return new TracedCall(startLine, endLine, name, body.substring(0, returns), value);
    }

    private record Started(int line, String name, String arguments) {
    }
}

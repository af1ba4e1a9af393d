package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;

/** What the tests read in a captured log: the refused-connection WARNs, and the absence of stack traces. */
final class RefusedConnectionLines {
    private static final Pattern FRAME = Pattern.compile("^\\s+at \\S+\\(.*\\)$|^\\s*Caused by: |^\\s+\\.\\.\\. \\d+ more$");

    private RefusedConnectionLines() {
    }

    static List<String> warnings(List<String> lines) {
        return lines.stream().filter(line -> line.contains(" WARN ") && line.contains("refused a connection from"))
                .toList();
    }

    /** Every refused-connection line names a loopback peer with its port, and this reason. */
    static void assertEachNamesALoopbackPeerAnd(String reason, List<String> warnings) {
        Pattern expected = Pattern.compile(".* WARN .*\\[node \\d+\\] refused a connection from 127\\.0\\.0\\.1:\\d+: "
                + Pattern.quote(reason) + "( \\(and \\d+ more like it in the last \\d+ s\\))?$");
        for (String warning : warnings) {
            assertTrue(expected.matcher(warning).matches(), "unexpected line: " + warning);
        }
    }

    static void assertNoStackTrace(List<String> lines) {
        for (String line : lines) {
            assertFalse(FRAME.matcher(line).find() || line.contains("\tat "), "stack trace line: " + line);
        }
    }
}

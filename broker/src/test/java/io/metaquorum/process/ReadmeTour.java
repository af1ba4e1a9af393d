package io.metaquorum.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands of README.md's "## A tour" ({@code ```sh} block), read at test time, and the
 * one rewrite that lets them run in a test: the quickstart's fixed ports (node N on 19090+N)
 * become a free base's, {@code quickstart-data} the test's data dir and {@code run.html} a
 * file in the test's directory. Anything port-like the rewrite does not understand fails, so
 * a change to the README breaks the test instead of running something else.
 */
final class ReadmeTour {
    static final String HEADING = "## A tour";
    private static final String FENCE_OPEN = "```sh";
    private static final String FENCE_CLOSE = "```";
    /** A trailing comment: whitespace, #, whitespace (no command of the tour holds " # "). */
    private static final Pattern COMMENT = Pattern.compile("\\s+#\\s.*$");
    /** An address of the tour: a fixed port, 1909$((EXPR)) (a port computed in the shell), or anything else. */
    private static final Pattern ADDRESS = Pattern.compile("127\\.0\\.0\\.1:(1909\\$\\(\\([^()]*\\)\\)|[^\\s,]*)");
    private static final Pattern FIXED_PORT = Pattern.compile("1909(\\d)");
    private static final Pattern COMPUTED_PORT = Pattern.compile("1909\\$\\(\\(([^()]*)\\)\\)");
    /** Other spellings of an address or a port that the rewrite would miss. */
    private static final Pattern STRAY_PORT = Pattern.compile("1909|localhost|127\\.0\\.0\\.1|MQ_BASE_PORT");
    private static final String DEFAULT_DATA_DIR = "quickstart-data";
    private static final String TIMELINE = "run.html";

    private ReadmeTour() {
    }

    /** The tour's command lines, trailing comments and blank lines left out, in order. */
    static List<String> commands(Path readme) throws IOException {
        List<String> lines = Files.readAllLines(readme);
        int heading = lines.indexOf(HEADING);
        if (heading < 0) {
            throw new AssertionError(readme + " has no line '" + HEADING + "'");
        }
        int line = heading + 1;
        while (line < lines.size() && !lines.get(line).equals(FENCE_OPEN)) {
            if (lines.get(line).startsWith("## ")) {
                throw new AssertionError("'" + HEADING + "' in " + readme + " has no " + FENCE_OPEN + " block");
            }
            line++;
        }
        List<String> commands = new ArrayList<>();
        for (line++; line < lines.size() && !lines.get(line).equals(FENCE_CLOSE); line++) {
            String command = COMMENT.matcher(lines.get(line)).replaceFirst("").strip();
            if (!command.isEmpty()) {
                commands.add(command);
            }
        }
        if (line == lines.size() || commands.isEmpty()) {
            throw new AssertionError("'" + HEADING + "' in " + readme + ": no closed " + FENCE_OPEN + " block with commands");
        }
        return commands;
    }

    /**
     * {@code command} with 127.0.0.1:1909N as 127.0.0.1:(basePort + N), 127.0.0.1:1909$((EXPR))
     * as 127.0.0.1:$((basePort + EXPR)) (EXPR is one digit in the README's node numbering), and
     * {@code quickstart-data} and {@code run.html} as {@code dataDir} and {@code timeline}.
     */
    static String rewrite(String command, int basePort, Path dataDir, Path timeline) {
        StringBuilder rewritten = new StringBuilder();
        Matcher address = ADDRESS.matcher(command);
        int last = 0;
        while (address.find()) {
            rewritten.append(rewriteText(command, command.substring(last, address.start()), dataDir, timeline));
            String port = address.group(1);
            Matcher fixed = FIXED_PORT.matcher(port);
            Matcher computed = COMPUTED_PORT.matcher(port);
            if (fixed.matches()) {
                rewritten.append("127.0.0.1:").append(basePort + Integer.parseInt(fixed.group(1)));
            } else if (computed.matches()) {
                rewritten.append("127.0.0.1:$((").append(basePort).append(" + ").append(computed.group(1)).append("))");
            } else {
                throw new AssertionError("the README tour's port '" + port + "' is not one this test can move to a"
                        + " free base (1909N or 1909$((EXPR))): " + command);
            }
            last = address.end();
        }
        rewritten.append(rewriteText(command, command.substring(last), dataDir, timeline));
        return rewritten.toString();
    }

    private static String rewriteText(String command, String text, Path dataDir, Path timeline) {
        if (STRAY_PORT.matcher(text).find()) {
            throw new AssertionError("the README tour names an address or port this test does not rewrite: " + command);
        }
        return text.replace(DEFAULT_DATA_DIR, dataDir.toString()).replace(TIMELINE, timeline.toString());
    }
}

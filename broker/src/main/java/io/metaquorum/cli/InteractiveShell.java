package io.metaquorum.cli;

import io.metaquorum.metadata.shell.ShellSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import org.jline.reader.Candidate;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The terminal side of {@code mq-metadata shell}, the only place jline is used: line editing,
 * in-memory history (up/down arrows) and tab completion, each line handed to the
 * {@link ShellSession}, which holds every command's logic. Ctrl-D or {@code exit} ends it;
 * Ctrl-C drops the line being typed.
 */
final class InteractiveShell {
    private InteractiveShell() {
    }

    static void run(ShellSession session, String banner) {
        try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
            LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("mq-metadata")
                    .completer((lineReader, line, candidates) -> {
                        String upToCursor = line.line().substring(0, line.cursor());
                        for (String candidate : session.complete(upToCursor)) {
                            candidates.add(new Candidate(candidate, candidate, null, null, null, null,
                                    !candidate.endsWith("/")));
                        }
                    })
                    .build();
            PrintWriter out = terminal.writer();
            out.println("# " + banner + "; help lists the commands");
            out.flush();
            while (true) {
                String line;
                try {
                    line = reader.readLine("mq-metadata:" + session.workingDirectory() + "> ");
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    return;
                }
                boolean more = session.execute(line, out::println, out::println);
                out.flush();
                if (!more) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the terminal: " + e.getMessage(), e);
        }
    }
}

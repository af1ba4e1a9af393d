package io.metaquorum.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of a command-line tool, with what it printed. */
record CliRun(int exitCode, String out, String err) {
    interface Tool {
        int run(String[] args, PrintWriter out, PrintWriter err);
    }

    static CliRun of(Tool tool, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = tool.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exitCode, out.toString(), err.toString());
    }

    /** Lines printed on stderr. */
    long errLines() {
        return err.lines().count();
    }
}

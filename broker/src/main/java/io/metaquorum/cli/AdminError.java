package io.metaquorum.cli;

import io.metaquorum.client.AdminException;
import io.metaquorum.retry.ErrorHandling;
import io.metaquorum.protocol.ErrorCode;
import java.io.PrintWriter;

/**
 * A failure of an admin command as docs/commands.md prints it: {@code Error: CODE: message}, one
 * line, the error code first, for a node's answer and for the checks the tool makes itself.
 */
final class AdminError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorCode code;

    AdminError(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    ErrorCode code() {
        return code;
    }

    static String line(ErrorCode code, int number, String message) {
        String text = message == null || message.isBlank() ? "(no message)" : CommandLines.oneLine(message);
        return "Error: " + ErrorHandling.name(code, number) + ": " + text;
    }

    static String line(ErrorCode code, String message) {
        return line(code, code == ErrorCode.UNRECOGNIZED ? -1 : code.getNumber(), message);
    }

    /** Prints a whole-command failure and returns the exit code for it. */
    static int print(RuntimeException failure, PrintWriter err, boolean verbose) {
        if (failure instanceof AdminError error) {
            err.println(line(error.code(), error.getMessage()));
        } else if (failure instanceof AdminException error) {
            err.println(line(error.code(), error.getMessage()));
        } else {
            throw failure;
        }
        if (verbose) {
            failure.printStackTrace(err);
        }
        err.flush();
        return CommandLines.EXIT_FAILURE;
    }
}

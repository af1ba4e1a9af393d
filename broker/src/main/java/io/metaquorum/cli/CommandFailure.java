package io.metaquorum.cli;

/** An expected failure of a command: its message is the one line printed on stderr. */
public final class CommandFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CommandFailure(String message) {
        super(message);
    }

    public CommandFailure(String message, Throwable cause) {
        super(message, cause);
    }
}

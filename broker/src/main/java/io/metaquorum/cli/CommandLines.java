package io.metaquorum.cli;

import io.metaquorum.server.ConfigException;
import io.metaquorum.server.ServerConfig;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import picocli.CommandLine;

/**
 * How every metaquorum command runs (docs/commands.md): {@code --help} on each command; a failure
 * prints one line on stderr, {@code <command>: <what went wrong>}, and exits non-zero
 * (2 for a usage error, 1 otherwise); a stack trace only with {@code --verbose}.
 */
public final class CommandLines {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    private CommandLines() {
    }

    /** Keeps library logging off stdout, where command output goes; call first in every tool's main. */
    public static void configureToolLogging() {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    }

    /** A tool's {@code main}: tool logging, the process's stdout and stderr, exit with the command's code. */
    public static void exitWith(Object command, String[] args) {
        configureToolLogging();
        System.exit(execute(command, args, new ByteStreamPrintWriter(System.out),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
    }

    public static int execute(Object command, String[] args, PrintWriter out, PrintWriter err) {
        boolean verbose = Arrays.asList(args).contains("--verbose");
        CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((exception, arguments) -> {
            err.println(exception.getCommandLine().getCommandSpec().qualifiedName() + ": "
                    + oneLine(exception.getMessage()) + " (see --help)");
            if (verbose) {
                exception.printStackTrace(err);
            }
            err.flush();
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((exception, failed, parseResult) -> {
            err.println(failed.getCommandSpec().qualifiedName() + ": " + describe(exception));
            if (verbose) {
                exception.printStackTrace(err);
            }
            err.flush();
            return EXIT_FAILURE;
        });
        int exitCode = commandLine.execute(args);
        out.flush();
        err.flush();
        return exitCode;
    }

    /** The message of a failure as one line; the class name when it has no message. */
    public static String describeFailure(Throwable failure) {
        return describe(failure);
    }

    static String describe(Throwable failure) {
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return failure.getClass().getSimpleName() + (failure.getCause() != null
                    ? ": " + describe(failure.getCause()) : "");
        }
        return oneLine(message);
    }

    static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    /** For a container command run without a subcommand. */
    public static int missingSubcommand(CommandLine.Model.CommandSpec spec) {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command: one of " + spec.subcommands().keySet());
    }

    /** Loads a node's properties for a tool; an invalid file is the tool's failure, named with the file. */
    static ServerConfig loadServerConfig(Path file) {
        try {
            return ServerConfig.load(file);
        } catch (ConfigException e) {
            throw new CommandFailure("invalid configuration in " + file + ": " + e.getMessage(), e);
        }
    }
}

package io.metaquorum.cli;

import picocli.CommandLine.Option;

/** {@code --verbose}: a failure prints its stack trace after the one-line message. */
public final class VerboseOption {
    @Option(names = "--verbose", description = "On failure, also print the stack trace.")
    boolean verbose;
}

package io.metaquorum.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mq-certs}: a certificate authority and the node and client certificates it signs, as
 * files for TLS (docs/security.md). Generated in-process, so no openssl or keytool is needed.
 */
@Command(name = "mq-certs", mixinStandardHelpOptions = true,
        description = "Makes a CA, and node and client certificates signed by it, for TLS.",
        subcommands = {CreateCaCommand.class, IssueNodeCommand.class, IssueClientCommand.class})
public final class CertsTool implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        CommandLines.exitWith(new CertsTool(), args);
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return CommandLines.execute(new CertsTool(), args, out, err);
    }

    @Override
    public Integer call() {
        return CommandLines.missingSubcommand(spec);
    }
}

package io.metaquorum.bench;

import io.metaquorum.cli.CommandLines;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mq-bench WORKLOAD [options]}: benchmark workloads; each prints one
 * {@code name value unit} line per figure, notes on lines starting with {@code #}.
 */
@Command(name = "mq-bench", mixinStandardHelpOptions = true,
        description = "Benchmark workloads; one 'name value unit' line per figure.",
        subcommands = {RaftAppendBench.class, FailoverBench.class})
public final class BenchTool implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "missing workload: one of " + spec.subcommands().keySet());
    }

    public static void main(String[] args) {
        CommandLines.configureToolLogging();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(CommandLines.execute(new BenchTool(), args, out, err));
    }
}

package io.metaquorum.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mq-storage}: cluster ids and formatting a node's directories (Kafka's {@code kafka-storage.sh}). */
@Command(name = "mq-storage", mixinStandardHelpOptions = true,
        description = "Prepares a node's data directories.",
        subcommands = {RandomUuidCommand.class, FormatCommand.class})
public final class StorageTool implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        CommandLines.exitWith(new StorageTool(), args);
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return CommandLines.execute(new StorageTool(), args, out, err);
    }

    @Override
    public Integer call() {
        return CommandLines.missingSubcommand(spec);
    }
}

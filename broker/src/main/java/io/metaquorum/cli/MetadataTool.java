package io.metaquorum.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mq-metadata}: the quorum's status (Kafka's {@code kafka-metadata-quorum.sh}) and the
 * metadata log's records and snapshots (Kafka's {@code kafka-dump-log.sh --cluster-metadata-decoder}).
 */
@Command(name = "mq-metadata", mixinStandardHelpOptions = true,
        description = "Inspects the metadata quorum and the metadata log.",
        subcommands = {QuorumCommand.class, AddControllerCommand.class, RemoveControllerCommand.class,
            UnsafeRecoverCommand.class,
            BrokersCommand.class, DumpCommand.class, SnapshotsCommand.class, VerifyCommand.class, DiffCommand.class,
            ShellCommand.class})
public final class MetadataTool implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        CommandLines.exitWith(new MetadataTool(), args);
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return CommandLines.execute(new MetadataTool(), args, out, err);
    }

    @Override
    public Integer call() {
        return CommandLines.missingSubcommand(spec);
    }
}

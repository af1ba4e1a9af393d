package io.metaquorum.cli;

import io.metaquorum.server.ConfigException;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mq-storage format}: writes meta.properties into the node's directories. */
@Command(name = "format", mixinStandardHelpOptions = true,
        description = "Writes meta.properties (cluster.id, node.id) into metadata.log.dir and, for brokers, "
                + "every log.dirs entry. Refuses a formatted directory unless --ignore-formatted.")
final class FormatCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The node's server.properties.")
    Path configFile;

    @Option(names = "--cluster-id", required = true, paramLabel = "ID",
            description = "The cluster id, as printed by mq-storage random-uuid.")
    String clusterId;

    @Option(names = "--ignore-formatted", description = "Leave already formatted directories as they are.")
    boolean ignoreFormatted;

    @Override
    public Integer call() {
        ServerConfig config;
        try {
            config = ServerConfig.load(configFile);
        } catch (ConfigException e) {
            throw new CommandFailure("invalid configuration in " + configFile + ": " + e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        try {
            StorageFormatter.format(config, clusterId, ignoreFormatted, out::println);
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
        return CommandLines.EXIT_OK;
    }
}

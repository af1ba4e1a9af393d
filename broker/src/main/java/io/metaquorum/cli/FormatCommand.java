package io.metaquorum.cli;

import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.server.ConfigException;
import io.metaquorum.server.InitialControllers;
import io.metaquorum.server.ScramArguments;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mq-storage format}: writes meta.properties into the node's directories. */
@Command(name = "format", mixinStandardHelpOptions = true,
        description = "Writes meta.properties (cluster.id, node.id, a random directory.id) into metadata.log.dir "
                + "and, for brokers, every log.dirs entry. Refuses a formatted directory unless --ignore-formatted. "
                + "A controller formatted with --initial-controllers or --no-initial-controllers keeps its voter set "
                + "in the log (KIP-853); without either it runs on the static controller.quorum.voters.")
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

    @Option(names = InitialControllers.FLAG, paramLabel = "ID@HOST:PORT:DIRECTORY_ID,...",
            description = "The voters a new quorum starts with, each with its directory id; this node's entry's "
                    + "directory id becomes its own. Give every controller the same list.")
    String initialControllers;

    @Option(names = "--no-initial-controllers",
            description = "A controller that joins a running quorum: an observer that learns the voter set from "
                    + "the log.")
    boolean noInitialControllers;

    @Option(names = ScramArguments.FLAG, paramLabel = "MECHANISM=[name=NAME,password=PASSWORD]",
            description = "A SCRAM credential the cluster starts with (repeatable), as Kafka's: "
                    + "SCRAM-SHA-256 or SCRAM-SHA-512, then [name=...,password=...] or "
                    + "[name=...,salt=BASE64,saltedpassword=BASE64], optionally with iterations=N (4096 to 16384, "
                    + "default 4096). Controllers only; the first active controller writes them into the log.")
    List<String> addScram = new ArrayList<>();

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
            List<MetadataRecord> scram = ScramArguments.parse(addScram, new SecureRandom());
            StorageFormatter.format(config, clusterId, initialVoters(), scram, ignoreFormatted, out::println);
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
        return CommandLines.EXIT_OK;
    }

    private Optional<VoterSet> initialVoters() {
        if (initialControllers != null && noInitialControllers) {
            throw new CommandFailure(InitialControllers.FLAG + " and --no-initial-controllers exclude each other");
        }
        if (noInitialControllers) {
            return Optional.of(VoterSet.EMPTY);
        }
        if (initialControllers == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InitialControllers.parse(initialControllers));
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
    }
}

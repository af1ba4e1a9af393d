package io.metaquorum.cli;

import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.shell.ImageTree;
import io.metaquorum.metadata.shell.ShellSession;
import io.metaquorum.metadata.tool.ImageReplay;
import io.metaquorum.metadata.tool.LogDirectory;
import io.metaquorum.raft.storage.StorageException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-metadata shell}: the metadata image as a browsable tree (Kafka's
 * {@code kafka-metadata-shell.sh}), built from a data dir or fetched live from a quorum, at
 * the latest offset or any earlier one.
 */
@Command(name = "shell", mixinStandardHelpOptions = true,
        description = {"Browses the metadata image as a tree: /brokers/<id>, /topics/<name>/<partition>, "
                + "/topicIds/<id>, /configs/<topic|broker>/<name>, /acls, /features, /provenance.",
            "Commands: ls, cd, cat, find, tree, pwd, history, help, exit; globs (*, ?, [abc]) in paths, tab "
                + "completion and history when interactive.",
            "--data-dir reads a node's log read-only (a running node's too); --bootstrap-controller fetches the "
                + "committed log from a live quorum as a short-lived anonymous observer and replays it in process."})
final class ShellCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    CommandConfigOption commandConfig;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    /** Where the image comes from: a data dir, or a live quorum. */
    static final class Source {
        @Option(names = "--data-dir", paramLabel = "DIR", description = "A node's metadata.log.dir.")
        Path dataDir;

        @Option(names = "--bootstrap-controller", paramLabel = "HOST:PORT[,HOST:PORT...]",
                description = "Controllers to fetch the committed log from (any of them: the leader is found).")
        String bootstrapControllers;
    }

    @Option(names = "--at-offset", paramLabel = "N", description = "The image after the record at offset N "
            + "(time travel); default: the latest.")
    Long atOffset;

    @Option(names = "--command", paramLabel = "\"CMD\"", description = "Run these commands (repeatable; in order) "
            + "and exit instead of prompting; exit code 1 if one of them failed.")
    java.util.List<String> commands;

    @Override
    public Integer call() {
        MetadataImage image = source.dataDir != null ? offlineImage(source.dataDir, atOffset)
                : LiveImages.fetch(QuorumCommand.parseControllers(source.bootstrapControllers), atOffset,
                        commandConfig.security());
        ShellSession session = new ShellSession(new ImageTree(image));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (commands != null) {
            boolean[] failed = {false};
            for (String command : commands) {
                session.execute(command, out::println, line -> {
                    failed[0] = true;
                    err.println(line);
                });
            }
            out.flush();
            err.flush();
            return failed[0] ? CommandLines.EXIT_FAILURE : CommandLines.EXIT_OK;
        }
        InteractiveShell.run(session, "image at offset " + image.lastCommittedOffset() + " (epoch "
                + image.lastCommittedEpoch() + ")");
        return CommandLines.EXIT_OK;
    }

    /** The image of {@code dataDir} at {@code atOffset} (null: the latest), read-only. */
    static MetadataImage offlineImage(Path dataDir, Long atOffset) {
        try (LogDirectory directory = LogDirectory.open(dataDir)) {
            return atOffset == null ? ImageReplay.latest(directory) : ImageReplay.at(directory, atOffset);
        } catch (StorageException | InvalidRecordException | IllegalArgumentException e) {
            throw new CommandFailure(CommandLines.describe(e), e);
        }
    }
}

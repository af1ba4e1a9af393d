package io.metaquorum.cli;

import io.metaquorum.metadata.tool.SnapshotListing;
import io.metaquorum.raft.storage.StorageException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mq-metadata snapshots}: the snapshot files of a metadata log, verified. */
@Command(name = "snapshots", mixinStandardHelpOptions = true,
        description = "Lists and verifies the snapshots of a metadata log, oldest first (reads the files only, "
                + "so it works on a running node).")
final class SnapshotsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The node's metadata.log.dir.")
    Path dataDir;

    @Override
    public Integer call() {
        if (!Files.isDirectory(dataDir)) {
            throw new CommandFailure(dataDir + " is not a directory; --data-dir is a node's metadata.log.dir");
        }
        List<SnapshotListing.Entry> entries;
        try {
            entries = SnapshotListing.list(dataDir);
        } catch (UncheckedIOException | StorageException e) {
            throw new CommandFailure(CommandLines.describe(e), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (entries.isEmpty()) {
            spec.commandLine().getErr().println("# no snapshots in " + dataDir.resolve(SnapshotListing.SNAPSHOT_DIRECTORY));
        }
        for (SnapshotListing.Entry entry : entries) {
            out.println(entry.describe());
        }
        out.flush();
        return CommandLines.EXIT_OK;
    }
}

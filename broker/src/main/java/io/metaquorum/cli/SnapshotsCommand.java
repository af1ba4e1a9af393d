package io.metaquorum.cli;

import io.metaquorum.metadata.tool.SnapshotListing;
import io.metaquorum.raft.storage.StorageException;
import java.io.PrintWriter;
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
        description = {"Lists and verifies the snapshots of a metadata log, oldest first: end offset, epoch, size, "
                + "records, last contained log time and checksum state (valid, or corrupt with the reason).",
            "Reads the files only, so it works on a running node. Exit code 1 when a file is corrupt."})
final class SnapshotsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The node's metadata.log.dir.")
    Path dataDir;

    @Option(names = "--json", description = "One JSON object: {\"snapshots\": [{\"file\", \"endOffset\", \"epoch\", "
            + "\"bytes\", \"records\", \"lastContainedLogTimeMs\", \"checksum\"}]}.")
    boolean json;

    @Override
    public Integer call() {
        if (!Files.isDirectory(dataDir)) {
            throw new CommandFailure(dataDir + " is not a directory; --data-dir is a node's metadata.log.dir");
        }
        List<SnapshotListing.Entry> entries;
        try {
            entries = SnapshotListing.list(dataDir);
        } catch (StorageException e) {
            throw new CommandFailure(CommandLines.describe(e), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(SnapshotListing.json(entries));
        } else {
            if (entries.isEmpty()) {
                spec.commandLine().getErr().println("# no snapshots in "
                        + dataDir.resolve(SnapshotListing.SNAPSHOT_DIRECTORY));
            }
            entries.forEach(entry -> out.println(entry.describe()));
        }
        out.flush();
        long corrupt = entries.stream().filter(entry -> !entry.valid()).count();
        if (corrupt > 0) {
            spec.commandLine().getErr().println("mq-metadata snapshots: " + corrupt + " corrupt snapshot file(s)");
            return CommandLines.EXIT_FAILURE;
        }
        return CommandLines.EXIT_OK;
    }
}

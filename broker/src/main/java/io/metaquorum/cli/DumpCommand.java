package io.metaquorum.cli;

import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.tool.MetadataLogDump;
import io.metaquorum.raft.storage.StorageException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-metadata dump}: the metadata log's records, one a line. It opens the node's
 * RocksDB database read-only, so it changes nothing and works on a running node's log too
 * (as of the moment it opens).
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Decodes the metadata log, one record a line (control records as LeaderChangeRecord etc.).",
            "Opens the log read-only: works on a running node too (as of the moment it opens). Records below the log start "
                + "are in the snapshot (see mq-metadata snapshots)."})
final class DumpCommand implements Callable<Integer> {
    /** The RocksDB subdirectory of a metadata.log.dir. */
    static final String DATABASE_DIRECTORY = "rocksdb";

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The node's metadata.log.dir.")
    Path dataDir;

    @Option(names = "--from-offset", paramLabel = "N", defaultValue = "0", description = "First offset (default 0).")
    long fromOffset;

    @Option(names = "--max-records", paramLabel = "N", defaultValue = "" + Long.MAX_VALUE,
            description = "Print at most N records (default: all).")
    long maxRecords;

    @Option(names = "--json", description = "One JSON object a line: {\"offset\", \"epoch\", \"type\", \"record\"}.")
    boolean json;

    @Override
    public Integer call() {
        if (fromOffset < 0) {
            throw new CommandFailure("--from-offset must be >= 0, got " + fromOffset);
        }
        if (maxRecords <= 0) {
            throw new CommandFailure("--max-records must be > 0, got " + maxRecords);
        }
        if (!Files.isDirectory(dataDir.resolve(DATABASE_DIRECTORY))) {
            throw new CommandFailure(dataDir + " holds no metadata log (no " + DATABASE_DIRECTORY
                    + " directory); --data-dir is a node's metadata.log.dir");
        }
        PrintWriter out = spec.commandLine().getOut();
        // Read-only: nothing in the directory changes, and a running node's log can be read.
        try (MetadataLogStore store = MetadataLogStore.openReadOnly(dataDir)) {
            if (fromOffset < store.raftLog().startOffset()) {
                spec.commandLine().getErr().println("# the log starts at offset " + store.raftLog().startOffset()
                        + "; earlier records are in the snapshot");
            }
            MetadataLogDump.dump(store.raftLog(), fromOffset, maxRecords, json, out::println);
        } catch (StorageException e) {
            throw new CommandFailure(CommandLines.describe(e), e);
        }
        out.flush();
        return CommandLines.EXIT_OK;
    }
}

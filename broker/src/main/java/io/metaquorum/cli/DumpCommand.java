package io.metaquorum.cli;

import io.metaquorum.metadata.tool.DumpOutput;
import io.metaquorum.metadata.tool.LogDirectory;
import io.metaquorum.metadata.tool.MetadataLogDump;
import io.metaquorum.metadata.tool.RecordFilter;
import io.metaquorum.metadata.tool.SnapshotFileReader;
import io.metaquorum.raft.storage.StorageException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-metadata dump}: the metadata log's (or a snapshot's) records, one a line. It opens
 * the node's RocksDB database read-only, so it changes nothing and works on a running node's
 * log too (as of the moment it opens).
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Decodes the metadata log (or one snapshot file), one record a line, each batch headed by a "
                + "line of its own (text only); control records are marked (control).",
            "Opens the log read-only: works on a running node too (as of the moment it opens). A corrupt batch "
                + "stops the dump after the records before it, naming its offset, with exit code 1."})
final class DumpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The node's metadata.log.dir.")
    Path dataDir;

    @Option(names = "--snapshot", paramLabel = "ID", description = "Dump this snapshot file instead of the log: "
            + "END_OFFSET-EPOCH as mq-metadata snapshots lists it (e.g. 1200-3).")
    String snapshot;

    @Option(names = "--from-offset", paramLabel = "N", defaultValue = "0", description = "First offset (default 0).")
    long fromOffset;

    @Option(names = "--max-records", paramLabel = "N", defaultValue = "" + Long.MAX_VALUE,
            description = "Print at most N records (default: all).")
    long maxRecords;

    @Option(names = "--type", paramLabel = "T", description = "Only records of this type (e.g. TopicRecord, "
            + "PartitionChange, LeaderChangeRecord).")
    String type;

    @Option(names = "--topic", paramLabel = "NAME|ID", description = "Only the records of this topic: its "
            + "TopicRecord, PartitionRecords, PartitionChangeRecords, ConfigRecords and RemoveTopicRecord.")
    String topic;

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
        // Bytes straight to stdout when run from main; a test's (or any other) writer gets the same text.
        PrintWriter writer = spec.commandLine().getOut();
        DumpOutput out = writer instanceof ByteStreamPrintWriter stdout ? DumpOutput.to(stdout.stream())
                : DumpOutput.to(writer);
        try {
            MetadataLogDump.Options options = new MetadataLogDump.Options(fromOffset, maxRecords,
                    RecordFilter.of(type, topic), json);
            if (snapshot != null) {
                LogDirectory.open(dataDir).close();
                MetadataLogDump.dumpSnapshot(dataDir, SnapshotFileReader.parseId(snapshot), options, out);
            } else {
                dumpLog(options, out);
            }
        } catch (StorageException | IllegalArgumentException | UncheckedIOException e) {
            throw new CommandFailure(CommandLines.describe(e), e);
        } finally {
            out.flush();
        }
        return CommandLines.EXIT_OK;
    }

    private void dumpLog(MetadataLogDump.Options options, DumpOutput out) {
        try (LogDirectory directory = LogDirectory.open(dataDir)) {
            directory.requireOffsetWithin("--from-offset", fromOffset);
            if (fromOffset < directory.startOffset()) {
                spec.commandLine().getErr().println("# the log starts at offset " + directory.startOffset()
                        + "; earlier records are in snapshot " + directory.logStartSnapshot().offset() + "-"
                        + directory.logStartSnapshot().epoch() + " (dump --snapshot)");
            }
            MetadataLogDump.dumpLog(directory.reader(), dataDir, options, out);
        }
    }
}

package io.metaquorum.cli;

import io.metaquorum.metadata.tool.LogDiff;
import io.metaquorum.metadata.tool.LogDirectory;
import io.metaquorum.raft.storage.StorageException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mq-metadata diff}: where two nodes' metadata logs part. */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Compares two metadata logs record by record (epoch, control flag, bytes) from the later of "
                + "their log starts: prints the first offset where they differ with both records, or 'identical up to "
                + "N' where the shorter one ends.",
            "Read-only: works on running nodes. Exit code 0 when one log is a prefix of the other, 1 when they differ."})
final class DiffCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Option(names = "--data-dir", required = true, paramLabel = "DIR",
            description = "A node's metadata.log.dir; give it twice (A, then B).")
    List<Path> dataDirs;

    @Override
    public Integer call() {
        if (dataDirs.size() != 2) {
            throw new CommandFailure("give --data-dir exactly twice (A and B), got " + dataDirs.size());
        }
        LogDiff.Result result;
        try (LogDirectory a = LogDirectory.open(dataDirs.get(0)); LogDirectory b = LogDirectory.open(dataDirs.get(1))) {
            result = LogDiff.compare(a, b);
        } catch (StorageException e) {
            throw new CommandFailure(CommandLines.describe(e), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        result.lines().forEach(out::println);
        out.flush();
        return result.differs() ? CommandLines.EXIT_FAILURE : CommandLines.EXIT_OK;
    }
}

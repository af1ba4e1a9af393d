package io.metaquorum.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** Where an {@code mq-certs} command writes its files, and whether it may replace them. */
final class OutputFilesOptions {
    @Option(names = "--out-dir", required = true, paramLabel = "DIR", description = "Where to write the files.")
    Path outDir;
    @Option(names = "--force", description = "Replace files that exist.")
    boolean force;

    /** The directory, ready for {@code files} (see {@link OutputDirectory#prepare}). */
    OutputDirectory prepare(List<String> files, PrintWriter out) {
        return OutputDirectory.prepare(outDir, files, force, out);
    }
}

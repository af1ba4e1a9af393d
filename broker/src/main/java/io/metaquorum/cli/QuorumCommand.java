package io.metaquorum.cli;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.metadata.tool.QuorumReportFormat;
import io.metaquorum.net.HostPort;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mq-metadata quorum}: the quorum's status through DescribeQuorum. */
@Command(name = "quorum", mixinStandardHelpOptions = true,
        description = {"Prints the metadata quorum's status as its leader sees it (like kafka-metadata-quorum.sh "
                + "describe --status / --replication).",
            "Any controller may be given; a non-leader names the leader but not its address, so give several "
                + "as a comma-separated list: they are asked in order until the leader answers."})
final class QuorumCommand implements Callable<Integer> {
    static final long REQUEST_TIMEOUT_MS = 5_000;

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    CommandConfigOption commandConfig;

    @Option(names = "--bootstrap-controller", required = true, paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "Controllers to ask, in order.")
    String bootstrapControllers;

    @Option(names = "--replication", description = "A table of every replica's progress instead of the summary.")
    boolean replication;

    @Option(names = "--json", description = "One JSON object (clusterId, leaderId, leaderEpoch, highWatermark, "
            + "voters, observers; ages in ms).")
    boolean json;

    @Override
    public Integer call() {
        List<HostPort> controllers = parseControllers(bootstrapControllers);
        QuorumReport report = QuorumReport.from(QuorumLeaderLookup.describeLeader(controllers, REQUEST_TIMEOUT_MS,
                commandConfig.security()));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(QuorumReportFormat.json(report));
        } else if (replication) {
            out.print(QuorumReportFormat.replication(report));
        } else {
            out.print(QuorumReportFormat.status(report));
        }
        out.flush();
        return CommandLines.EXIT_OK;
    }

    static List<HostPort> parseControllers(String text) {
        List<HostPort> controllers = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            if (item.isBlank()) {
                continue;
            }
            try {
                HostPort address = HostPort.parse(item);
                if (address.port() == 0) {
                    throw new IllegalArgumentException("port 0 in '" + item.trim() + "' is not a real port");
                }
                controllers.add(address);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure("--bootstrap-controller: " + e.getMessage());
            }
        }
        if (controllers.isEmpty()) {
            throw new CommandFailure("--bootstrap-controller: expected HOST:PORT[,HOST:PORT...]");
        }
        return controllers;
    }
}

package io.metaquorum.cli;

import io.metaquorum.client.AdminClient;
import io.metaquorum.client.AdminException;
import io.metaquorum.net.HostPort;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * How {@code mq-topics}, {@code mq-configs} and {@code mq-acls} reach the admin API: their
 * {@code --command-config} and {@code --bootstrap-server} flags, and the one way they run
 * ({@link #run}): check the flags before any node is asked, connect, act, and print a failure
 * as {@code Error: CODE: message} with exit code 1.
 */
final class AdminConnection {
    /** A tool's flag checks (an {@link AdminError} when one fails), and then what it does with the client. */
    interface Checks {
        ClientWork check(PrintWriter out, PrintWriter err);
    }

    /** What a tool does with the connected client; returns the exit code. */
    interface ClientWork {
        int run(AdminClient client);
    }

    @Mixin
    CommandConfigOption commandConfig;
    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT[,HOST:PORT...]", split = ",", hideParamSyntax = true,
            description = "Nodes to ask (any node; comma-separated or repeated).")
    List<String> bootstrapServers = new ArrayList<>();

    private final Function<List<HostPort>, AdminClient> connector;

    /**
     * {@code connector}: how the tool reaches the nodes; null for the real one, a gRPC client
     * with the {@code --command-config} credentials.
     */
    AdminConnection(Function<List<HostPort>, AdminClient> connector) {
        this.connector = connector;
    }

    /** The {@code --bootstrap-server} nodes; an {@link AdminError} when there are none or one is malformed. */
    List<HostPort> bootstrap() {
        return TopicArguments.bootstrap(bootstrapServers);
    }

    /** Runs a tool: its checks, then its work with a client that is closed after it. */
    int run(CommandSpec spec, boolean verbose, Checks checks) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            ClientWork work = checks.check(out, err);
            try (AdminClient client = connect(bootstrap())) {
                return work.run(client);
            }
        } catch (AdminError | AdminException failure) {
            return AdminError.print(failure, err, verbose);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private AdminClient connect(List<HostPort> bootstrap) {
        return connector != null ? connector.apply(bootstrap)
                : AdminClient.connect(bootstrap, commandConfig.security());
    }
}

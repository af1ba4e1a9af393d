package io.metaquorum.cli;

import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.net.HostPort;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-topics}: creates, lists, describes, deletes and grows topics through the admin
 * API, as Kafka's {@code kafka-topics.sh} does. The flags are docs/commands.md's; the checks this
 * tool makes before asking mirror kafka-topics.sh's and print like a node's answer,
 * {@code Error: CODE: message}, one line per failed topic, exit 1.
 */
@Command(name = "mq-topics", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Creates, lists, describes, deletes and alters topics (like kafka-topics.sh).",
            "Exactly one of --create, --list, --describe, --delete, --alter. Any node's address works "
                + "for --bootstrap-server; several may be given and are tried in turn.",
            "A failure prints 'Error: CODE: message' on stderr, one line per failed topic, and exits 1."})
public final class TopicsTool implements Callable<Integer> {
    /** The overall deadline of every admin call the tool makes. */
    static final long CALL_TIMEOUT_MS = 30_000;

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    AdminConnection connection;

    @Option(names = "--create", description = "Create the topics.")
    boolean create;
    @Option(names = "--list", description = "List topic names, one per line, sorted.")
    boolean list;
    @Option(names = "--describe", description = "Describe the topics (all when no --topic).")
    boolean describe;
    @Option(names = "--delete", description = "Delete the topics.")
    boolean delete;
    @Option(names = "--alter", description = "Grow the topics to --partitions partitions.")
    boolean alter;
    @Option(names = "--topic", paramLabel = "NAME[,NAME...]", split = ",", hideParamSyntax = true,
            description = "Topic names (comma-separated or repeated): a batch, one result per topic.")
    List<String> topicNames = new ArrayList<>();
    @Option(names = "--partitions", paramLabel = "N",
            description = "Partitions (create: default the controller's num.partitions; alter: the new total).")
    Integer partitions;
    @Option(names = "--replication-factor", paramLabel = "N",
            description = "Replicas per partition (create only; default the controller's default.replication.factor).")
    Integer replicationFactor;
    @Option(names = "--replica-assignment", paramLabel = "B:B:B,B:B:B",
            description = "Brokers per partition: partitions by comma, replicas by colon, the first the preferred "
                + "leader. Create: instead of --partitions and --replication-factor; alter: every partition, "
                + "existing ones first.")
    String replicaAssignment;
    @Option(names = "--config", paramLabel = "KEY=VALUE",
            description = "A topic config (repeatable, create only; use mq-configs to change it later).")
    List<String> configs = new ArrayList<>();
    @Option(names = "--if-not-exists", description = "Create: a topic that exists already is not an error.")
    boolean ifNotExists;
    @Option(names = "--if-exists", description = "Alter, delete, describe: a missing topic is not an error.")
    boolean ifExists;
    @Option(names = "--validate-only", description = "Create, alter: check everything, change nothing.")
    boolean validateOnly;
    @Option(names = "--json", description = "Describe: one JSON object.")
    boolean json;

    public TopicsTool() {
        this(null);
    }

    /** {@code connector}: how the tool reaches the nodes (a real gRPC client in {@link #main}). */
    TopicsTool(Function<List<HostPort>, AdminClient> connector) {
        this.connection = new AdminConnection(connector);
    }

    public static void main(String[] args) {
        CommandLines.exitWith(new TopicsTool(), args);
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return CommandLines.execute(new TopicsTool(), args, out, err);
    }

    @Override
    public Integer call() {
        return connection.run(spec, verbose.verbose, (out, err) -> {
            checkArguments();
            return client -> new TopicsActions(this, client, out, err).run();
        });
    }

    String action() {
        return create ? "--create" : list ? "--list" : describe ? "--describe" : delete ? "--delete" : "--alter";
    }

    /** kafka-topics.sh's argument checks, before any node is asked. */
    void checkArguments() {
        int actions = (create ? 1 : 0) + (list ? 1 : 0) + (describe ? 1 : 0) + (delete ? 1 : 0) + (alter ? 1 : 0);
        if (actions != 1) {
            throw invalid("Give exactly one of --create, --list, --describe, --delete, --alter (got " + actions + ").");
        }
        connection.bootstrap();
        if ((create || alter || delete) && TopicArguments.topics(topicNames).isEmpty()) {
            throw invalid(action() + " needs --topic.");
        }
        onlyWith(partitions != null, "--partitions", create || alter, "--create or --alter");
        onlyWith(replicationFactor != null, "--replication-factor", create, "--create");
        onlyWith(replicaAssignment != null, "--replica-assignment", create || alter, "--create or --alter");
        onlyWith(!configs.isEmpty(), "--config", create, "--create (use mq-configs to change a topic's configs)");
        onlyWith(ifNotExists, "--if-not-exists", create, "--create");
        onlyWith(ifExists, "--if-exists", alter || delete || describe, "--alter, --delete or --describe");
        onlyWith(validateOnly, "--validate-only", create || alter, "--create or --alter");
        onlyWith(json, "--json", describe, "--describe");
        if (create && replicaAssignment != null && (partitions != null || replicationFactor != null)) {
            throw invalid("--replica-assignment gives the partitions and their replicas; it cannot be used with "
                    + (partitions != null ? "--partitions" : "--replication-factor") + ".");
        }
        if (alter && partitions == null) {
            throw invalid("--alter needs --partitions, the new total number of partitions.");
        }
        TopicArguments.checkPartitions(partitions);
        TopicArguments.checkReplicationFactor(replicationFactor);
        if (replicaAssignment != null) {
            int assigned = TopicArguments.replicaAssignment(replicaAssignment).size();
            if (alter && assigned != partitions) {
                throw new AdminError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "--replica-assignment lists " + assigned
                        + " partitions but --partitions is " + partitions + "; list every partition, existing ones first.");
            }
        }
        TopicArguments.configs(configs);
    }

    private void onlyWith(boolean given, String option, boolean allowed, String actions) {
        if (given && !allowed) {
            throw invalid(option + " can only be used with " + actions + ", not with " + action() + ".");
        }
    }

    private static AdminError invalid(String message) {
        return new AdminError(ErrorCode.INVALID_REQUEST, message);
    }
}

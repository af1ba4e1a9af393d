package io.metaquorum.cli;

import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResult;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.ConfigOperation;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeConfigsResult;
import io.metaquorum.protocol.DescribeUserScramCredentialsResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.net.HostPort;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-configs}: describes and changes topic configs through DescribeConfigs and
 * IncrementalAlterConfigs, as Kafka's {@code kafka-configs.sh --entity-type topics} does, and
 * users' SCRAM credentials through AlterUserScramCredentials and DescribeUserScramCredentials,
 * as {@code --entity-type users} does there ({@link UserScramConfigs}).
 * Failures print like {@code mq-topics}: {@code Error: CODE: message}, exit 1.
 */
@Command(name = "mq-configs", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Describes and alters topic configs (like kafka-configs.sh).",
            "Exactly one of --describe, --alter. A failure prints 'Error: CODE: message' on stderr and exits 1."})
public final class ConfigsTool implements Callable<Integer> {
    static final String TOPICS = "topics";
    static final String USERS = "users";

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    AdminConnection connection;

    @Option(names = "--entity-type", paramLabel = "TYPE", description = "The kind of entity: topics, or users "
            + "(SCRAM credentials: --add-config 'SCRAM-SHA-256=[iterations=8192,password=SECRET]', "
            + "--delete-config SCRAM-SHA-256).")
    String entityType;
    @Option(names = "--entity-name", paramLabel = "NAME", description = "The topic or user (describe: all when "
            + "absent).")
    String entityName;
    @Option(names = "--describe", description = "Print the topic's own (dynamic) configs.")
    boolean describe;
    @Option(names = "--alter", description = "Change configs with --add-config and --delete-config.")
    boolean alter;
    @Option(names = "--add-config", paramLabel = "K=V[,K2=V2...]",
            description = "Configs to set; a value holding commas goes in square brackets: k=[a,b].")
    List<String> addConfigs = new ArrayList<>();
    @Option(names = "--delete-config", paramLabel = "K[,K2...]", split = ",", hideParamSyntax = true,
            description = "Configs to remove (back to their default).")
    List<String> deleteConfigs = new ArrayList<>();
    @Option(names = "--json", description = "Describe: one JSON object.")
    boolean json;

    public ConfigsTool() {
        this(null);
    }

    /** {@code connector}: how the tool reaches the nodes (a real gRPC client in {@link #main}). */
    ConfigsTool(Function<List<HostPort>, AdminClient> connector) {
        this.connection = new AdminConnection(connector);
    }

    public static void main(String[] args) {
        CommandLines.exitWith(new ConfigsTool(), args);
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return CommandLines.execute(new ConfigsTool(), args, out, err);
    }

    @Override
    public Integer call() {
        return connection.run(spec, verbose.verbose, (out, err) -> {
            checkArguments();
            if (USERS.equals(entityType)) {
                return client -> describe ? describeUsers(client, out, err) : alterUser(client, out, err);
            }
            return client -> describe ? describe(client, out, err) : alter(client, out, err);
        });
    }

    void checkArguments() {
        if (describe == alter) {
            throw invalid("Give exactly one of --describe, --alter.");
        }
        connection.bootstrap();
        if (entityType == null) {
            throw invalid("--entity-type is required (topics).");
        }
        if (!TOPICS.equals(entityType) && !USERS.equals(entityType)) {
            throw invalid("--entity-type " + entityType + " is not supported; topics and users are.");
        }
        if (alter && (entityName == null || entityName.isBlank())) {
            throw invalid("--alter needs --entity-name.");
        }
        if (describe && (!addConfigs.isEmpty() || !deleteConfigs.isEmpty())) {
            throw invalid("--add-config and --delete-config can only be used with --alter.");
        }
        if (json && !describe) {
            throw invalid("--json can only be used with --describe.");
        }
        if (alter && addConfigs.isEmpty() && deleteConfigs.isEmpty()) {
            throw invalid("--alter needs --add-config or --delete-config.");
        }
        Set<String> both = new LinkedHashSet<>(ConfigEntries.parse(addConfigs).keySet());
        both.retainAll(deleteKeys());
        if (!both.isEmpty()) {
            throw invalid("Config(s) " + String.join(", ", both) + " are in both --add-config and --delete-config.");
        }
    }

    private Set<String> deleteKeys() {
        Set<String> keys = new LinkedHashSet<>();
        for (String key : deleteConfigs) {
            if (!key.isBlank()) {
                keys.add(key.trim());
            }
        }
        return keys;
    }

    private int describe(AdminClient client, PrintWriter out, PrintWriter err) {
        List<String> names = entityName == null || entityName.isBlank()
                ? client.listTopics(TopicsTool.CALL_TIMEOUT_MS).stream().map(ListedTopic::getName).sorted().toList()
                : List.of(entityName);
        List<DescribeConfigsResource> resources = names.stream().map(name -> DescribeConfigsResource.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC).setResourceName(name).build()).toList();
        List<DescribeConfigsResult> described = new ArrayList<>();
        int failures = 0;
        for (DescribeConfigsResult result : client.describeConfigs(resources, TopicsTool.CALL_TIMEOUT_MS)) {
            if (result.getErrorCode() == ErrorCode.NONE) {
                described.add(result);
            } else {
                failures++;
                err.println(AdminError.line(result.getErrorCode(), result.getErrorCodeValue(), result.getErrorMessage()));
            }
        }
        if (json) {
            out.println(ConfigDescriptions.json(described));
        } else {
            described.forEach(result -> out.print(ConfigDescriptions.text(result)));
        }
        return failures == 0 ? CommandLines.EXIT_OK : CommandLines.EXIT_FAILURE;
    }

    private int alter(AdminClient client, PrintWriter out, PrintWriter err) {
        AlterConfigsResource.Builder resource = AlterConfigsResource.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC).setResourceName(entityName);
        for (Map.Entry<String, String> config : ConfigEntries.parse(addConfigs).entrySet()) {
            resource.addConfigs(AlterableConfig.newBuilder().setName(config.getKey())
                    .setConfigOperation(ConfigOperation.SET).setValue(config.getValue()));
        }
        for (String key : deleteKeys()) {
            resource.addConfigs(AlterableConfig.newBuilder().setName(key).setConfigOperation(ConfigOperation.DELETE));
        }
        AlterConfigsResourceResult result = client.incrementalAlterConfigs(List.of(resource.build()), false,
                TopicsTool.CALL_TIMEOUT_MS).get(0);
        if (result.getErrorCode() != ErrorCode.NONE) {
            err.println(AdminError.line(result.getErrorCode(), result.getErrorCodeValue(), result.getErrorMessage()));
            return CommandLines.EXIT_FAILURE;
        }
        out.println("Completed updating config for topic " + entityName + ".");
        return CommandLines.EXIT_OK;
    }

    private int describeUsers(AdminClient client, PrintWriter out, PrintWriter err) {
        List<String> users = entityName == null || entityName.isBlank() ? List.of() : List.of(entityName);
        int failures = 0;
        for (DescribeUserScramCredentialsResult user : client.describeUserScramCredentials(users,
                TopicsTool.CALL_TIMEOUT_MS).getResultsList()) {
            if (user.getErrorCode() == ErrorCode.NONE) {
                out.println(UserScramConfigs.describe(user));
            } else {
                failures++;
                err.println(AdminError.line(user.getErrorCode(), user.getErrorCodeValue(), user.getErrorMessage()));
            }
        }
        return failures == 0 ? CommandLines.EXIT_OK : CommandLines.EXIT_FAILURE;
    }

    private int alterUser(AdminClient client, PrintWriter out, PrintWriter err) {
        AlterUserScramCredentialsRequest request = UserScramConfigs.alteration(entityName,
                ConfigEntries.parse(addConfigs), List.copyOf(deleteKeys()), new SecureRandom());
        int failures = 0;
        for (AlterUserScramCredentialsResult result : client.alterUserScramCredentials(request,
                TopicsTool.CALL_TIMEOUT_MS).getResultsList()) {
            if (result.getErrorCode() != ErrorCode.NONE) {
                failures++;
                err.println(AdminError.line(result.getErrorCode(), result.getErrorCodeValue(),
                        result.getErrorMessage()));
            }
        }
        if (failures > 0) {
            return CommandLines.EXIT_FAILURE;
        }
        out.println("Completed updating config for user " + entityName + ".");
        return CommandLines.EXIT_OK;
    }

    private static AdminError invalid(String message) {
        return new AdminError(ErrorCode.INVALID_REQUEST, message);
    }
}

package io.metaquorum.cli;

import io.metaquorum.client.AdminClient;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.net.HostPort;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-acls}: adds, removes and lists ACLs through CreateAcls, DeleteAcls and
 * DescribeAcls, with kafka-acls.sh's verbs and flags (docs/commands.md), and explains a
 * node's decision through ExplainAcl. This class parses and checks the flags;
 * {@link AclsActions} does the asking and printing.
 *
 * <p>An action is one {@link Action}: a constant there, its flags and checks here, a method in
 * {@link AclsActions}. The tool decides no authorization itself: {@code --explain} prints
 * what the node answers, so it cannot disagree with what the node enforces.
 */
@Command(name = "mq-acls", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Adds, removes, lists and explains ACLs (like kafka-acls.sh).",
            "Exactly one of --add, --remove, --list, --explain. A failure prints 'Error: CODE: message' on stderr "
                + "and exits 1."})
public final class AclsTool implements Callable<Integer> {
    /** What the tool does; exactly one per run. */
    enum Action { ADD, REMOVE, LIST, EXPLAIN }

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    AdminConnection connection;

    @Option(names = "--add",
            description = "Add the ACLs the principal, host and operation flags make, on each resource.")
    boolean add;
    @Option(names = "--remove", description = "Remove those ACLs (all of a resource's without principal flags); asks "
            + "first unless --force.")
    boolean remove;
    @Option(names = "--list", description = "List the ACLs of the resources (all ACLs without a resource).")
    boolean list;
    @Option(names = "--explain", description = "Ask a node whether --principal, from --host, may do the one "
            + "--operation on the one resource; print its answer: ALLOWED or DENIED and the rule or ACL that decided.")
    boolean explain;
    @Option(names = "--principal", paramLabel = "TYPE:NAME", description = "Explain: the principal that asks.")
    String principal;
    @Option(names = "--host", paramLabel = "HOST", description = "Explain: the address it connects from (default *: "
            + "hosts match as literal strings, so * meets only the ACLs for every host; name the address to meet "
            + "ACLs for it too).")
    String host;
    @Option(names = "--allow-principal", paramLabel = "TYPE:NAME", description = "A principal to allow (repeatable).")
    List<String> allowPrincipals = new ArrayList<>();
    @Option(names = "--deny-principal", paramLabel = "TYPE:NAME", description = "A principal to deny (repeatable).")
    List<String> denyPrincipals = new ArrayList<>();
    @Option(names = "--allow-host", paramLabel = "HOST",
            description = "A host the allowed principals may come from (repeatable; default *).")
    List<String> allowHosts = new ArrayList<>();
    @Option(names = "--deny-host", paramLabel = "HOST",
            description = "A host the denied principals are denied from (repeatable; default *).")
    List<String> denyHosts = new ArrayList<>();
    @Option(names = "--operation", paramLabel = "OPERATION",
            description = "Read, Write, Create, Delete, Alter, Describe, ClusterAction, DescribeConfigs, AlterConfigs, "
                + "IdempotentWrite, CreateTokens, DescribeTokens, TwoPhaseCommit or All (repeatable; default All).")
    List<String> operations = new ArrayList<>();
    @Option(names = "--topic", paramLabel = "NAME", description = "A topic (repeatable).")
    List<String> topics = new ArrayList<>();
    @Option(names = "--group", paramLabel = "NAME", description = "A consumer group (repeatable).")
    List<String> groups = new ArrayList<>();
    @Option(names = "--cluster", description = "The cluster resource (kafka-cluster).")
    boolean cluster;
    @Option(names = "--resource-pattern-type", paramLabel = "TYPE", defaultValue = "literal",
            description = "literal or prefixed (add); also match or any (remove, list). Default literal.")
    String resourcePatternType;
    @Option(names = "--force", description = "Remove without asking.")
    boolean force;
    @Option(names = "--json", description = "List: one JSON object, {\"acls\": [...]}; explain: the answer as one "
            + "JSON object.")
    boolean json;

    private final RemoveConfirmation confirmation;

    public AclsTool() {
        this(null, RemoveConfirmation.console());
    }

    /** {@code connector}: how the tool reaches the nodes; {@code confirmation}: who answers --remove's question. */
    AclsTool(Function<List<HostPort>, AdminClient> connector, RemoveConfirmation confirmation) {
        this.connection = new AdminConnection(connector);
        this.confirmation = confirmation;
    }

    public static void main(String[] args) {
        CommandLines.exitWith(new AclsTool(), args);
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return CommandLines.execute(new AclsTool(), args, out, err);
    }

    @Override
    public Integer call() {
        return connection.run(spec, verbose.verbose, (out, err) -> {
            Action action = checkArguments();
            AclsActions actions = new AclsActions(this, out, err, confirmation);
            actions.prepare(action);
            return client -> actions.run(action, client);
        });
    }

    /** kafka-acls.sh's argument checks, before any node is asked. */
    Action checkArguments() {
        int actions = (add ? 1 : 0) + (remove ? 1 : 0) + (list ? 1 : 0) + (explain ? 1 : 0);
        if (actions != 1) {
            throw invalid("Give exactly one of --add, --remove, --list, --explain (got " + actions + ").");
        }
        connection.bootstrap();
        if (explain) {
            checkExplainArguments();
            return Action.EXPLAIN;
        }
        if (principal != null || host != null) {
            throw invalid("--principal and --host are for --explain; --add and --remove take --allow-principal and "
                    + "--deny-principal, with --allow-host and --deny-host.");
        }
        Action action = add ? Action.ADD : remove ? Action.REMOVE : Action.LIST;
        PatternType patternType = patternType();
        boolean resources = !topics.isEmpty() || !groups.isEmpty() || cluster;
        if (action != Action.LIST && !resources) {
            throw invalid("--" + action.name().toLowerCase(Locale.ROOT)
                    + " needs a resource: --topic, --group or --cluster.");
        }
        if (action == Action.ADD && patternType != PatternType.LITERAL && patternType != PatternType.PREFIXED) {
            throw invalid("--resource-pattern-type " + resourcePatternType.trim() + " selects ACLs; --add takes "
                    + "literal or prefixed.");
        }
        if (cluster && patternType != PatternType.LITERAL) {
            throw invalid("--cluster is the one resource kafka-cluster; it takes --resource-pattern-type literal.");
        }
        boolean principals = !allowPrincipals.isEmpty() || !denyPrincipals.isEmpty();
        if (action == Action.ADD && !principals) {
            throw invalid("--add needs --allow-principal or --deny-principal.");
        }
        if (action == Action.LIST && (principals || !allowHosts.isEmpty() || !denyHosts.isEmpty()
                || !operations.isEmpty())) {
            throw invalid("--list takes resources only; the principal, host and operation flags are for --add and "
                    + "--remove.");
        }
        if (action == Action.REMOVE && !principals && !operations.isEmpty()) {
            throw invalid("--operation names the ACLs of --allow-principal or --deny-principal; without them --remove "
                    + "removes every ACL of the resource.");
        }
        if (!allowHosts.isEmpty() && allowPrincipals.isEmpty() || !denyHosts.isEmpty() && denyPrincipals.isEmpty()) {
            throw invalid("--allow-host goes with --allow-principal, --deny-host with --deny-principal.");
        }
        if (json && action != Action.LIST) {
            throw invalid("--json can only be used with --list or --explain.");
        }
        return action;
    }

    /**
     * One question: a principal, one operation, one resource by its name. What the answer
     * cannot use is refused rather than ignored, so nobody reads an answer to another question.
     */
    private void checkExplainArguments() {
        if (!allowPrincipals.isEmpty() || !denyPrincipals.isEmpty() || !allowHosts.isEmpty() || !denyHosts.isEmpty()) {
            throw invalid("--explain takes --principal and --host; --allow-principal, --deny-principal, --allow-host "
                    + "and --deny-host are for --add and --remove.");
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--resource-pattern-type")) {
            throw invalid("--explain asks about one resource by its name; --resource-pattern-type is for --add, "
                    + "--remove and --list.");
        }
        if (principal == null) {
            throw invalid("--explain needs --principal TYPE:NAME, e.g. User:alice.");
        }
        if (operations.size() != 1) {
            throw invalid("--explain needs one --operation (got " + operations.size() + ").");
        }
        int resources = topics.size() + groups.size() + (cluster ? 1 : 0);
        if (resources != 1) {
            throw invalid("--explain needs one resource: --topic, --group or --cluster (got " + resources + ").");
        }
    }

    /** The --explain host: --host, else every host (see its description). */
    String explainHost() {
        return host != null ? host : AclArguments.EXPLAIN_HOST_DEFAULT;
    }

    PatternType patternType() {
        return AclArguments.patternType(resourcePatternType);
    }

    private static AdminError invalid(String message) {
        return new AdminError(ErrorCode.INVALID_REQUEST, message);
    }
}

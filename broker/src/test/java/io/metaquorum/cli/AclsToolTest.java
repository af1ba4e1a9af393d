package io.metaquorum.cli;

import static io.metaquorum.cli.AdminResponses.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.client.InProcessCluster;
import io.metaquorum.client.ScriptedAdminService;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclCreationResult;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DeleteAclsFilterResult;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.DescribedAcl;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** mq-acls against a scripted node: the flag checks, what is sent, and what is printed; --explain too. */
class AclsToolTest {
    private static final String ALICE_ID = "AAAAAAAAAAAAAAAAAAAAAQ";
    private static final String BOB_ID = "AAAAAAAAAAAAAAAAAAAAAg";

    private final InProcessCluster cluster = new InProcessCluster();
    private final ScriptedAdminService node = new ScriptedAdminService();
    private final List<String> questions = new ArrayList<>();
    private RemoveConfirmation confirmation = question -> {
        questions.add(question);
        return Optional.of(true);
    };
    private HostPort address;

    @AfterEach
    void stop() {
        cluster.close();
    }

    private CliRun acls(String... args) {
        if (address == null) {
            address = cluster.node(1, node);
        }
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", address.toString()));
        all.addAll(List.of(args));
        return CliRun.of((argv, out, err) -> CommandLines.execute(new AclsTool(cluster::client, confirmation), argv,
                out, err), all.toArray(String[]::new));
    }

    private void assertRefused(CliRun run, String expectedErr) {
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(expectedErr, run.err().strip());
        assertEquals(0, node.requests().size(), "a request refused by the tool reaches no node");
    }

    private static DescribedAcl acl(String id, String topic, String principal, AclOperation operation) {
        return DescribedAcl.newBuilder().setId(TopicIds.fromBase64(id)).setResourceType(ResourceType.TOPIC.code())
                .setResourceName(topic).setPatternType(PatternType.LITERAL.code()).setPrincipal(principal)
                .setHost("*").setOperation(operation.code()).setPermissionType(PermissionType.ALLOW.code()).build();
    }

    private static DescribeAclsResponse described(DescribedAcl... acls) {
        return DescribeAclsResponse.newBuilder().setHeader(ok()).addAllAcls(List.of(acls)).build();
    }

    @Test
    void addSendsEveryPrincipalWithEveryOperationAndHostOnEachResourceAndPrintsAsKafkaDoes() {
        CreateAclsResponse.Builder answer = CreateAclsResponse.newBuilder().setHeader(ok()).setCommitOffset(12);
        for (int i = 0; i < 4; i++) {
            answer.addResults(AclCreationResult.getDefaultInstance());
        }
        node.answer(answer.build());
        CliRun run = acls("--add", "--allow-principal", "User:alice", "--operation", "Read", "--operation",
                "describe", "--deny-principal", "User:mallory", "--deny-host", "10.0.0.9", "--operation", "READ",
                "--topic", "orders");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Adding ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`: \n"
                + " \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)\n"
                + "\t(principal=User:alice, host=*, operation=DESCRIBE, permissionType=ALLOW)\n"
                + "\t(principal=User:mallory, host=10.0.0.9, operation=READ, permissionType=DENY)\n"
                + "\t(principal=User:mallory, host=10.0.0.9, operation=DESCRIBE, permissionType=DENY) \n\n", run.out());
        List<AclCreation> sent = ((CreateAclsRequest) node.requests().get(0)).getCreationsList();
        assertEquals(4, sent.size(), "the operations apply to allowed and denied principals alike");
        assertEquals(AclCreation.newBuilder().setResourceType(ResourceType.TOPIC.code()).setResourceName("orders")
                .setPatternType(PatternType.LITERAL.code()).setPrincipal("User:mallory").setHost("10.0.0.9")
                .setOperation(AclOperation.READ.code()).setPermissionType(PermissionType.DENY.code()).build(),
                sent.get(2));
    }

    @Test
    void aCreationTheControllerRefusesIsPrintedWithItsAclAndExitsOne() {
        node.answer(CreateAclsResponse.newBuilder().setHeader(ok()).addResults(AclCreationResult.newBuilder()
                .setErrorCode(ErrorCode.INVALID_REQUEST).setErrorMessage("The resource name is empty.")).build());
        CliRun run = acls("--add", "--allow-principal", "User:a", "--operation", "Read", "--topic", "t");
        assertEquals(1, run.exitCode());
        assertEquals("Error: INVALID_REQUEST: ResourcePattern(resourceType=TOPIC, name=t, patternType=LITERAL) "
                + "(principal=User:a, host=*, operation=READ, permissionType=ALLOW): The resource name is empty.",
                run.err().strip());
    }

    @Test
    void listPrintsKafkasBlocksPerResource() {
        node.answer(described(acl(ALICE_ID, "orders", "User:alice", AclOperation.READ),
                acl(BOB_ID, "orders", "User:bob", AclOperation.WRITE)));
        CliRun run = acls("--list", "--topic", "orders");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`: \n"
                + " \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)\n"
                + "\t(principal=User:bob, host=*, operation=WRITE, permissionType=ALLOW) \n\n", run.out());
        AclFilter sent = ((DescribeAclsRequest) node.requests().get(0)).getFilter();
        assertEquals("orders", sent.getResourceName());
        assertEquals(PatternType.LITERAL.code(), sent.getPatternType());
    }

    @Test
    void listJsonIsTheDocumentedObject() {
        node.answer(described(acl(ALICE_ID, "orders", "User:alice", AclOperation.READ)));
        CliRun run = acls("--list", "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("{\"acls\": [{\"id\": \"" + ALICE_ID + "\", \"resourceType\": \"TOPIC\", \"resourceName\": "
                + "\"orders\", \"patternType\": \"LITERAL\", \"principal\": \"User:alice\", \"host\": \"*\", "
                + "\"operation\": \"READ\", \"permissionType\": \"ALLOW\"}]}\n", run.out());
        AclFilter sent = ((DescribeAclsRequest) node.requests().get(0)).getFilter();
        assertEquals(ResourceType.ANY.code(), sent.getResourceType());
        assertTrue(!sent.hasResourceName() && !sent.hasPrincipal() && !sent.hasHost());
    }

    @Test
    void removeWithoutATerminalAndWithoutForceRefusesAndSendsNothing() {
        confirmation = question -> Optional.empty();
        assertRefused(acls("--remove", "--topic", "orders"), "Error: INVALID_REQUEST: --remove asks before it "
                + "deletes, and there is no terminal to ask on; pass --force to remove without asking.");
    }

    @Test
    void removeAnsweredNoSendsNothing() {
        confirmation = question -> Optional.of(false);
        CliRun run = acls("--remove", "--topic", "orders");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(0, node.requests().size());
    }

    @Test
    void removeAsksKafkasQuestionThenSendsOneFilterPerEntryAndPrintsWhatWent() {
        node.answer(DeleteAclsResponse.newBuilder().setHeader(ok()).addFilterResults(DeleteAclsFilterResult
                .newBuilder().addMatchingAcls(acl(ALICE_ID, "orders", "User:alice", AclOperation.READ))).build());
        CliRun run = acls("--remove", "--allow-principal", "User:alice", "--operation", "Read", "--topic", "orders",
                "--resource-pattern-type", "match");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("Are you sure you want to remove ACLs: \n \t(principal=User:alice, host=*, operation=READ, "
                + "permissionType=ALLOW) \n from resource filter `ResourcePattern(resourceType=TOPIC, name=orders, "
                + "patternType=MATCH)`?"), questions);
        AclFilter sent = ((DeleteAclsRequest) node.requests().get(0)).getFilters(0);
        assertEquals(PatternType.MATCH.code(), sent.getPatternType());
        assertEquals("User:alice", sent.getPrincipal());
        assertEquals(AclOperation.READ.code(), sent.getOperation());
        assertEquals("Removed ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`: \n"
                + " \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW) \n\n", run.out());
    }

    @Test
    void forceRemovesEveryAclOfTheResourceWithoutAskingAndARefusalIsSaidOnce() {
        DeleteAclsFilterResult tooMany = DeleteAclsFilterResult.newBuilder().setErrorCode(ErrorCode.INVALID_REQUEST)
                .setErrorMessage("The filters match 5000 ACLs; one DeleteAcls deletes at most 4096").build();
        node.answer(DeleteAclsResponse.newBuilder().setHeader(ok()).addFilterResults(tooMany).addFilterResults(tooMany)
                .build());
        CliRun run = acls("--remove", "--force", "--topic", "a", "--group", "g");
        assertEquals(1, run.exitCode());
        assertEquals(List.of(), questions);
        DeleteAclsRequest sent = (DeleteAclsRequest) node.requests().get(0);
        assertEquals(2, sent.getFiltersCount());
        assertEquals(AclOperation.ANY.code(), sent.getFilters(1).getOperation());
        assertTrue(!sent.getFilters(1).hasPrincipal());
        assertEquals("Error: INVALID_REQUEST: The filters match 5000 ACLs; one DeleteAcls deletes at most 4096",
                run.err().strip());
    }

    @Test
    void theToolsOwnChecks() {
        assertRefused(acls("--topic", "t"), "Error: INVALID_REQUEST: Give exactly one of --add, --remove, --list, "
                + "--explain (got 0).");
        assertRefused(acls("--add", "--topic", "t"),
                "Error: INVALID_REQUEST: --add needs --allow-principal or --deny-principal.");
        assertRefused(acls("--add", "--allow-principal", "User:a"),
                "Error: INVALID_REQUEST: --add needs a resource: --topic, --group or --cluster.");
        assertRefused(acls("--add", "--allow-principal", "User:a", "--topic", "t", "--resource-pattern-type", "match"),
                "Error: INVALID_REQUEST: --resource-pattern-type match selects ACLs; --add takes literal or prefixed.");
        assertRefused(acls("--add", "--allow-principal", "User:a", "--operation", "Write", "--group", "g"),
                "Error: INVALID_REQUEST: The operation WRITE does not apply to a GROUP; it takes ALL, READ, DELETE, "
                        + "DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS.");
        assertRefused(acls("--add", "--allow-principal", "alice", "--topic", "t"),
                "Error: INVALID_REQUEST: The principal 'alice' is not TYPE:NAME (e.g. User:alice, or User:* for every "
                        + "user).");
        assertRefused(acls("--add", "--allow-principal", "User:a", "--operation", "Fly", "--topic", "t"),
                "Error: INVALID_REQUEST: --operation 'Fly' is not an operation; one of ALL, READ, WRITE, CREATE, "
                        + "DELETE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, "
                        + "CREATE_TOKENS, DESCRIBE_TOKENS, TWO_PHASE_COMMIT.");
        assertRefused(acls("--list", "--json", "--allow-principal", "User:a"), "Error: INVALID_REQUEST: --list takes "
                + "resources only; the principal, host and operation flags are for --add and --remove.");
        assertRefused(acls("--add", "--json", "--allow-principal", "User:a", "--topic", "t"),
                "Error: INVALID_REQUEST: --json can only be used with --list or --explain.");
        assertRefused(acls("--remove", "--cluster", "--resource-pattern-type", "prefixed"), "Error: INVALID_REQUEST: "
                + "--cluster is the one resource kafka-cluster; it takes --resource-pattern-type literal.");
        assertRefused(acls("--remove", "--force", "--operation", "Read", "--topic", "t"), "Error: INVALID_REQUEST: "
                + "--operation names the ACLs of --allow-principal or --deny-principal; without them --remove removes "
                + "every ACL of the resource.");
        assertRefused(acls("--add", "--allow-host", "h", "--deny-principal", "User:a", "--topic", "t"),
                "Error: INVALID_REQUEST: --allow-host goes with --allow-principal, --deny-host with --deny-principal.");
    }

    @Test
    void clusterAclsNameKafkaCluster() {
        node.answer(CreateAclsResponse.newBuilder().setHeader(ok()).addResults(AclCreationResult.getDefaultInstance())
                .build());
        CliRun run = acls("--add", "--allow-principal", "User:ops", "--operation", "IdempotentWrite", "--cluster");
        assertEquals(0, run.exitCode(), run.err());
        AclCreation sent = ((CreateAclsRequest) node.requests().get(0)).getCreations(0);
        assertEquals("kafka-cluster", sent.getResourceName());
        assertEquals(AclOperation.IDEMPOTENT_WRITE.code(), sent.getOperation());
    }

    private static ExplainAclResponse.Builder explained(boolean allowed, String rule, String explanation) {
        return ExplainAclResponse.newBuilder().setHeader(ok()).setAllowed(allowed).setRule(rule)
                .setExplanation(explanation).setAuthorizerEnabled(true);
    }

    @Test
    void explainAsksTheOneQuestionAndPrintsTheNodesLine() {
        String line = "DENIED User:bob WRITE TOPIC orders from 127.0.0.1: no ACL allows it (default deny)";
        node.answer(explained(false, "NO_ACL_FOR_RESOURCE", line).build());
        CliRun run = acls("--explain", "--principal", "User:bob", "--host", "127.0.0.1", "--operation", "Write",
                "--topic", "orders");
        assertEquals(0, run.exitCode(), "a denial is an answer, not a failure: " + run.err());
        assertEquals(line + "\n", run.out());
        assertEquals("", run.err());
        assertEquals(ExplainAclRequest.newBuilder().setPrincipal("User:bob").setHost("127.0.0.1")
                .setOperation(AclOperation.WRITE.code()).setResourceType(ResourceType.TOPIC.code())
                .setResourceName("orders").build(), node.requests().get(0));
    }

    @Test
    void explainWithoutHostAsksFromEveryHostAndTheClusterIsKafkaCluster() {
        node.answer(explained(true, "ACL", "ALLOWED User:ops IDEMPOTENT_WRITE CLUSTER kafka-cluster from * by ACL "
                + ALICE_ID + " (ALLOW User:ops IDEMPOTENT_WRITE CLUSTER LITERAL kafka-cluster)").build());
        CliRun run = acls("--explain", "--principal", "User:ops", "--operation", "idempotent-write", "--cluster");
        assertEquals(0, run.exitCode(), run.err());
        ExplainAclRequest sent = (ExplainAclRequest) node.requests().get(0);
        assertEquals("*", sent.getHost());
        assertEquals(ResourceType.CLUSTER.code(), sent.getResourceType());
        assertEquals("kafka-cluster", sent.getResourceName());
        assertEquals(AclOperation.IDEMPOTENT_WRITE.code(), sent.getOperation());
    }

    @Test
    void explainOnANodeThatEnforcesNoAclsSaysSoOnASecondLine() {
        String line = "DENIED User:bob READ GROUP g from *: no ACL allows it (default deny)";
        node.answer(explained(false, "NO_ACL_FOR_RESOURCE", line).setAuthorizerEnabled(false).build());
        CliRun run = acls("--explain", "--principal", "User:bob", "--operation", "Read", "--group", "g");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(line + "\nThe node that answered does not enforce ACLs (authorizer.enabled is off): it allows "
                + "every request, whatever the ACLs say.\n", run.out());
    }

    @Test
    void explainJsonIsTheDocumentedObjectWithTheDecidingAclOrNull() {
        node.answer(explained(true, "ACL", "ALLOWED User:bob WRITE TOPIC orders from * by ACL " + BOB_ID)
                        .setAcl(acl(BOB_ID, "orders", "User:*", AclOperation.WRITE)).build(),
                explained(false, "NO_ACL_MATCHES", "DENIED \"quoted\"").setAuthorizerEnabled(false).build());
        CliRun byAcl = acls("--explain", "--json", "--principal", "User:bob", "--operation", "Write", "--topic",
                "orders");
        assertEquals(0, byAcl.exitCode(), byAcl.err());
        assertEquals("{\"allowed\": true, \"rule\": \"ACL\", \"acl\": {\"id\": \"" + BOB_ID + "\", "
                + "\"resourceType\": \"TOPIC\", \"resourceName\": \"orders\", \"patternType\": \"LITERAL\", "
                + "\"principal\": \"User:*\", \"host\": \"*\", \"operation\": \"WRITE\", "
                + "\"permissionType\": \"ALLOW\"}, \"explanation\": \"ALLOWED User:bob WRITE TOPIC orders from * "
                + "by ACL " + BOB_ID + "\", \"authorizerEnabled\": true}\n", byAcl.out());
        CliRun byDefault = acls("--explain", "--json", "--principal", "User:bob", "--operation", "Write", "--topic",
                "orders");
        assertEquals("{\"allowed\": false, \"rule\": \"NO_ACL_MATCHES\", \"acl\": null, \"explanation\": "
                + "\"DENIED \\\"quoted\\\"\", \"authorizerEnabled\": false}\n", byDefault.out(),
                "JSON has no second line: authorizerEnabled says it");
    }

    @Test
    void explainRefusedByTheNodePrintsItsErrorAndExitsOne() {
        node.answer(ExplainAclResponse.newBuilder().setHeader(AdminResponses.refused(
                ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "User:bob may not DESCRIBE the cluster.")).build());
        CliRun run = acls("--explain", "--principal", "User:bob", "--operation", "Read", "--topic", "t");
        assertEquals(1, run.exitCode());
        assertEquals("", run.out());
        assertEquals("Error: CLUSTER_AUTHORIZATION_FAILED: User:bob may not DESCRIBE the cluster.", run.err().strip());
    }

    @Test
    void explainsOwnChecks() {
        assertRefused(acls("--explain", "--operation", "Read", "--topic", "t"),
                "Error: INVALID_REQUEST: --explain needs --principal TYPE:NAME, e.g. User:alice.");
        assertRefused(acls("--explain", "--principal", "User:a", "--topic", "t"),
                "Error: INVALID_REQUEST: --explain needs one --operation (got 0).");
        assertRefused(acls("--explain", "--principal", "User:a", "--operation", "Read", "--operation", "Write",
                "--topic", "t"), "Error: INVALID_REQUEST: --explain needs one --operation (got 2).");
        assertRefused(acls("--explain", "--principal", "User:a", "--operation", "Read"),
                "Error: INVALID_REQUEST: --explain needs one resource: --topic, --group or --cluster (got 0).");
        assertRefused(acls("--explain", "--principal", "User:a", "--operation", "Read", "--topic", "t", "--group",
                "g"), "Error: INVALID_REQUEST: --explain needs one resource: --topic, --group or --cluster (got 2).");
        assertRefused(acls("--explain", "--allow-principal", "User:a", "--operation", "Read", "--topic", "t"),
                "Error: INVALID_REQUEST: --explain takes --principal and --host; --allow-principal, "
                        + "--deny-principal, --allow-host and --deny-host are for --add and --remove.");
        assertRefused(acls("--explain", "--principal", "User:a", "--operation", "Read", "--topic", "t",
                "--resource-pattern-type", "literal"), "Error: INVALID_REQUEST: --explain asks about one resource "
                + "by its name; --resource-pattern-type is for --add, --remove and --list.");
        assertRefused(acls("--explain", "--principal", "alice", "--operation", "Read", "--topic", "t"),
                "Error: INVALID_REQUEST: The principal 'alice' is not TYPE:NAME (e.g. User:alice, or User:* for every "
                        + "user).");
        assertRefused(acls("--explain", "--principal", "User:a", "--operation", "Write", "--group", "g"),
                "Error: INVALID_REQUEST: The operation WRITE does not apply to a GROUP; it takes ALL, READ, DELETE, "
                        + "DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS.");
        assertRefused(acls("--explain", "--principal", "User:a", "--operation", "All", "--topic", "t"),
                "Error: INVALID_REQUEST: --explain asks about one operation a client does; All is what an ACL "
                        + "grants, not what a client asks for: name one, e.g. Read.");
        assertRefused(acls("--explain", "--add", "--principal", "User:a", "--operation", "Read", "--topic", "t"),
                "Error: INVALID_REQUEST: Give exactly one of --add, --remove, --list, --explain (got 2).");
        assertRefused(acls("--list", "--principal", "User:a"), "Error: INVALID_REQUEST: --principal and --host are "
                + "for --explain; --add and --remove take --allow-principal and --deny-principal, with --allow-host "
                + "and --deny-host.");
        CliRun noValue = acls("--explain", "--operation", "Read", "--topic", "t", "--principal");
        assertEquals(CommandLines.EXIT_USAGE, noValue.exitCode(), "what picocli cannot parse stays a usage error");
        assertTrue(noValue.err().startsWith("mq-acls: ") && noValue.err().strip().endsWith("(see --help)"),
                noValue.err());
    }
}

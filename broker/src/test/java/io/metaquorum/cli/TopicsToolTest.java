package io.metaquorum.cli;

import static io.metaquorum.cli.AdminResponses.ok;
import static io.metaquorum.cli.AdminResponses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.client.AdminClient;
import io.metaquorum.client.InProcessCluster;
import io.metaquorum.client.ScriptedAdminService;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopicResult;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** mq-topics against a scripted node: the argument checks, what is sent, and what is printed. */
class TopicsToolTest {
    private final InProcessCluster cluster = new InProcessCluster();
    private final ScriptedAdminService node = new ScriptedAdminService();
    private HostPort address;

    @AfterEach
    void stop() {
        cluster.close();
    }

    private CliRun topics(String... args) {
        if (address == null) {
            address = cluster.node(1, node);
        }
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", address.toString()));
        all.addAll(List.of(args));
        return CliRun.of((argv, out, err) -> CommandLines.execute(new TopicsTool(cluster::client), argv, out, err),
                all.toArray(String[]::new));
    }

    private void assertRefused(CliRun run, String expectedErr) {
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(expectedErr, run.err().strip());
        assertEquals("", run.out());
        assertEquals(0, node.requests().size(), "a request refused by the tool reaches no node");
    }

    static CreateTopicsResponse created(String name, ErrorCode code, String message) {
        return CreateTopicsResponse.newBuilder().setHeader(ok()).addTopics(CreatableTopicResult.newBuilder()
                .setName(name).setErrorCode(code).setErrorMessage(message)).build();
    }

    private CreatableTopic sentTopic(int request) {
        return ((CreateTopicsRequest) node.requests().get(request)).getTopics(0);
    }

    @Test
    void exactlyOneActionIsNeeded() {
        assertRefused(topics("--topic", "t"),
                "Error: INVALID_REQUEST: Give exactly one of --create, --list, --describe, --delete, --alter (got 0).");
        assertRefused(topics("--list", "--delete", "--topic", "t"),
                "Error: INVALID_REQUEST: Give exactly one of --create, --list, --describe, --delete, --alter (got 2).");
    }

    @Test
    void theBootstrapServerIsNeeded() {
        CliRun run = CliRun.of(TopicsTool::run, "--list");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("Error: INVALID_REQUEST: --bootstrap-server HOST:PORT"), run.err());
        run = CliRun.of(TopicsTool::run, "--list", "--bootstrap-server", "localhost");
        assertEquals("Error: INVALID_REQUEST: --bootstrap-server: expected HOST:PORT, got 'localhost'",
                run.err().strip());
    }

    @Test
    void createNeedsATopic() {
        assertRefused(topics("--create", "--partitions", "1"), "Error: INVALID_REQUEST: --create needs --topic.");
    }

    @Test
    void partitionsMustBePositive() {
        assertRefused(topics("--create", "--topic", "t", "--partitions", "0"),
                "Error: INVALID_PARTITIONS: The number of partitions must be at least 1, got 0.");
        node.answer(created("t", ErrorCode.NONE, ""));
        CliRun run = topics("--create", "--topic", "t", "--partitions", "1");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(1, sentTopic(0).getNumPartitions());
        assertTrue(!sentTopic(0).hasReplicationFactor(), "no --replication-factor: the controller's default");
    }

    @Test
    void theReplicationFactorMustBeInRange() {
        assertRefused(topics("--create", "--topic", "t", "--replication-factor", "0"),
                "Error: INVALID_REPLICATION_FACTOR: The replication factor must be between 1 and 32767, got 0.");
        assertRefused(topics("--create", "--topic", "t", "--replication-factor", "32768"),
                "Error: INVALID_REPLICATION_FACTOR: The replication factor must be between 1 and 32767, got 32768.");
        node.answer(created("t", ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition 32767 "
                + "time(s): The target replication factor of 32767 cannot be reached because only 3 broker(s) are "
                + "registered."));
        CliRun run = topics("--create", "--topic", "t", "--replication-factor", "32767");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("Error: INVALID_REPLICATION_FACTOR: Unable to replicate"), run.err());
        assertEquals(32767, sentTopic(0).getReplicationFactor());
    }

    @Test
    void aReplicaAssignmentExcludesPartitionsAndReplicationFactor() {
        assertRefused(topics("--create", "--topic", "t", "--replica-assignment", "4:5", "--partitions", "1"),
                "Error: INVALID_REQUEST: --replica-assignment gives the partitions and their replicas; it cannot be "
                        + "used with --partitions.");
        assertRefused(topics("--create", "--topic", "t", "--replica-assignment", "4:5", "--replication-factor", "2"),
                "Error: INVALID_REQUEST: --replica-assignment gives the partitions and their replicas; it cannot be "
                        + "used with --replication-factor.");
    }

    @Test
    void aReplicaAssignmentIsParsedAndChecked() {
        assertRefused(topics("--create", "--topic", "t", "--replica-assignment", "4:5:x"),
                "Error: INVALID_REPLICA_ASSIGNMENT: Partition 0 of --replica-assignment '4:5:x' has 'x' where a "
                        + "broker id belongs.");
        assertRefused(topics("--create", "--topic", "t", "--replica-assignment", "4:5,6:6"),
                "Error: INVALID_REPLICA_ASSIGNMENT: Partition 1 of --replica-assignment names a broker twice: 6:6.");
        assertRefused(topics("--create", "--topic", "t", "--replica-assignment", "4:5,6"),
                "Error: INVALID_REPLICA_ASSIGNMENT: Partition 1 of --replica-assignment has 1 replicas, partition 0 "
                        + "has 2; every partition needs the same number.");
        node.answer(created("t", ErrorCode.NONE, ""));
        assertEquals(0, topics("--create", "--topic", "t", "--replica-assignment", "4:5:6,5:6:4").exitCode());
        CreatableTopic sent = sentTopic(0);
        assertEquals(List.of(4, 5, 6), sent.getAssignments(0).getBrokerIdsList());
        assertEquals(1, sent.getAssignments(1).getPartitionIndex());
        assertEquals(List.of(5, 6, 4), sent.getAssignments(1).getBrokerIdsList());
        assertTrue(!sent.hasNumPartitions() && !sent.hasReplicationFactor());
    }

    @Test
    void configsAreKeyValueAndForCreateOnly() {
        assertRefused(topics("--create", "--topic", "t", "--config", "cleanup.policy"),
                "Error: INVALID_CONFIG: Invalid config entry 'cleanup.policy': expected key=value.");
        assertRefused(topics("--alter", "--topic", "t", "--partitions", "4", "--config", "a=b"),
                "Error: INVALID_REQUEST: --config can only be used with --create (use mq-configs to change a "
                        + "topic's configs), not with --alter.");
        node.answer(created("t", ErrorCode.NONE, ""));
        CliRun run = topics("--create", "--topic", "t", "--config", "cleanup.policy=compact", "--config",
                "retention.ms=1000");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("cleanup.policy", sentTopic(0).getConfigs(0).getName());
        assertEquals("1000", sentTopic(0).getConfigs(1).getValue());
    }

    @Test
    void optionsBelongToTheirActions() {
        assertRefused(topics("--delete", "--topic", "t", "--if-not-exists"),
                "Error: INVALID_REQUEST: --if-not-exists can only be used with --create, not with --delete.");
        assertRefused(topics("--list", "--json"),
                "Error: INVALID_REQUEST: --json can only be used with --describe, not with --list.");
        assertRefused(topics("--alter", "--topic", "t", "--replication-factor", "3", "--partitions", "4"),
                "Error: INVALID_REQUEST: --replication-factor can only be used with --create, not with --alter.");
        assertRefused(topics("--alter", "--topic", "t"),
                "Error: INVALID_REQUEST: --alter needs --partitions, the new total number of partitions.");
    }

    @Test
    void aMalformedOptionIsAUsageError() {
        CliRun run = topics("--create", "--topic", "t", "--partitions", "many");
        assertEquals(CommandLines.EXIT_USAGE, run.exitCode());
        assertEquals(1, run.errLines(), run.err());
    }

    @Test
    void createPrintsKafkasLineAndABatchReportsEachFailedTopic() {
        node.answer(CreateTopicsResponse.newBuilder().setHeader(ok())
                .addTopics(CreatableTopicResult.newBuilder().setName("a"))
                .addTopics(CreatableTopicResult.newBuilder().setName("b").setErrorCode(ErrorCode.TOPIC_ALREADY_EXISTS)
                        .setErrorMessage("Topic 'b' already exists."))
                .addTopics(CreatableTopicResult.newBuilder().setName("c").setErrorCode(ErrorCode.INVALID_CONFIG)
                        .setErrorMessage("Invalid value x for configuration cleanup.policy")).build());
        CliRun run = topics("--create", "--topic", "a,b", "--topic", "c");
        assertEquals(1, run.exitCode());
        assertEquals("Created topic a.\n", run.out());
        assertEquals("Error: TOPIC_ALREADY_EXISTS: Topic 'b' already exists.\n"
                + "Error: INVALID_CONFIG: Invalid value x for configuration cleanup.policy\n", run.err());
    }

    @Test
    void ifNotExistsToleratesAnExistingTopicOnly() {
        node.answer(created("b", ErrorCode.TOPIC_ALREADY_EXISTS, "Topic 'b' already exists."),
                created("b", ErrorCode.INVALID_TOPIC_EXCEPTION, "bad name"));
        CliRun run = topics("--create", "--topic", "b", "--if-not-exists");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        run = topics("--create", "--topic", "b", "--if-not-exists");
        assertEquals(1, run.exitCode());
        assertEquals("Error: INVALID_TOPIC_EXCEPTION: bad name", run.err().strip());
    }

    @Test
    void aRequestLevelErrorIsOneLine() {
        node.answer(CreateTopicsResponse.newBuilder().setHeader(refused(ErrorCode.INVALID_REQUEST, "too many topics"))
                .build());
        CliRun run = topics("--create", "--topic", "a");
        assertEquals(1, run.exitCode());
        assertEquals("Error: INVALID_REQUEST: too many topics\n", run.err());
    }

    static DeleteTopicsResponse deleted(String name, ErrorCode code) {
        return DeleteTopicsResponse.newBuilder().setHeader(ok()).addTopics(DeletableTopicResult.newBuilder()
                .setName(name).setErrorCode(code).setErrorMessage("This server does not host this topic-partition."))
                .build();
    }

    @Test
    void deleteWithIfExistsToleratesAnUnknownTopic() {
        node.answer(deleted("t", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), deleted("t", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
                deleted("t", ErrorCode.NONE));
        CliRun run = topics("--delete", "--topic", "t");
        assertEquals(1, run.exitCode());
        assertEquals("Error: UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.",
                run.err().strip());
        run = topics("--delete", "--topic", "t", "--if-exists");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out() + run.err());
        run = topics("--delete", "--topic", "t");
        assertEquals("Deleted topic t.\n", run.out());
    }

    @Test
    void listPrintsNamesSorted() {
        node.answer(ListTopicsResponse.newBuilder().setHeader(ok())
                .addTopics(ListedTopic.newBuilder().setName("zeta"))
                .addTopics(ListedTopic.newBuilder().setName("alpha"))
                .addTopics(ListedTopic.newBuilder().setName("demo")).build());
        CliRun run = topics("--list");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("alpha\ndemo\nzeta\n", run.out());
    }

    private void answerDescribe(DescribedTopic... described) {
        node.answer(DescribeTopicsResponse.newBuilder().setHeader(ok()).addAllTopics(List.of(described)).build());
    }

    @Test
    void describePrintsKafkasLines() {
        answerDescribe(AdminResponses.demo());
        CliRun run = topics("--describe", "--topic", "demo");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Topic: demo\tTopicId: x9VhI4eNQmqgq5o4fXoVtA\tPartitionCount: 2\tReplicationFactor: 3\t"
                + "Configs: cleanup.policy=compact,segment.bytes=1048576\n"
                + "\tTopic: demo\tPartition: 0\tLeader: 4\tReplicas: 4,5,6\tIsr: 4,5,6\n"
                + "\tTopic: demo\tPartition: 1\tLeader: none\tReplicas: 5,6,4\tIsr: \n", run.out());
    }

    @Test
    void describeJsonIsProductsShape() {
        answerDescribe(AdminResponses.demo());
        CliRun run = topics("--describe", "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("{\"topics\": [{\"name\": \"demo\", \"topicId\": \"x9VhI4eNQmqgq5o4fXoVtA\", "
                + "\"configs\": {\"cleanup.policy\": \"compact\", \"segment.bytes\": \"1048576\"}, "
                + "\"partitions\": [{\"partition\": 0, \"leader\": 4, \"leaderEpoch\": 2, \"replicas\": [4,5,6], "
                + "\"isr\": [4,5,6]}, {\"partition\": 1, \"leader\": -1, \"leaderEpoch\": 2, \"replicas\": [5,6,4], "
                + "\"isr\": []}]}]}\n", run.out());
    }

    @Test
    void describeReportsAnUnknownTopicUnlessIfExists() {
        DescribedTopic missing = DescribedTopic.newBuilder().setName("gone")
                .setErrorCode(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION).setErrorMessage("Topic 'gone' does not exist.").build();
        answerDescribe(AdminResponses.demo(), missing);
        CliRun run = topics("--describe", "--topic", "demo,gone");
        assertEquals(1, run.exitCode());
        assertEquals("Error: UNKNOWN_TOPIC_OR_PARTITION: Topic 'gone' does not exist.", run.err().strip());
        assertTrue(run.out().startsWith("Topic: demo\t"), run.out());
        answerDescribe(AdminResponses.demo(), missing);
        run = topics("--describe", "--topic", "demo,gone", "--if-exists");
        assertEquals(0, run.exitCode(), run.err());
    }

    @Test
    void alterGrowsAndSendsOnlyTheNewPartitionsAssignments() {
        answerDescribe(AdminResponses.demo());
        node.answer(CreatePartitionsResponse.newBuilder().setHeader(ok())
                .addTopics(CreatePartitionsTopicResult.newBuilder().setName("demo")).build());
        CliRun run = topics("--alter", "--topic", "demo", "--partitions", "3", "--replica-assignment", "4:5:6,5:6:4,6:4:5");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Altered topic demo: now 3 partitions.\n", run.out());
        CreatePartitionsRequest sent = (CreatePartitionsRequest) node.requests().get(1);
        assertEquals(3, sent.getTopics(0).getCount());
        assertEquals(1, sent.getTopics(0).getAssignmentsCount());
        assertEquals(List.of(6, 4, 5), sent.getTopics(0).getAssignments(0).getBrokerIdsList());
    }

    @Test
    void alterWithAnAssignmentRefusesToShrink() {
        answerDescribe(AdminResponses.demo());
        CliRun run = topics("--alter", "--topic", "demo", "--partitions", "2", "--replica-assignment", "4:5:6,5:6:4");
        assertEquals(1, run.exitCode());
        assertEquals("Error: INVALID_PARTITIONS: Topic 'demo' has 2 partitions; --alter --partitions only grows it, "
                + "got 2.", run.err().strip());
        assertEquals(1, node.requests().size(), "only the describe was sent");
    }
    @Test
    void describeWithoutTopicsAsksForEveryTopic() {
        answerDescribe(AdminResponses.demo());
        CliRun run = topics("--describe");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(0, ((DescribeTopicsRequest) node.requests().get(0)).getTopicsCount());
    }

    @Test
    void describeOfEveryTopicJoinsATopicSplitAcrossPagesAndPrintsAsOneList() {
        DescribedTopic demo = AdminResponses.demo(); // partition 1 listed before partition 0
        DescribedTopic other = DescribedTopic.newBuilder().setName("other").setTopicId(demo.getTopicId())
                .addPartitions(demo.getPartitions(0)).build();
        String unpaged = "";
        for (String format : List.of("--describe", "--json")) {
            answerDescribe(demo, other);
            CliRun one = format.equals("--json") ? topics("--describe", "--json") : topics("--describe");
            node.answer(DescribeTopicsResponse.newBuilder().setHeader(ok())
                            .addTopics(demo.toBuilder().removePartitions(0))
                            .setNextCursor(DescribeTopicsCursor.newBuilder().setTopicName("demo").setPartitionIndex(1))
                            .build(),
                    DescribeTopicsResponse.newBuilder().setHeader(ok())
                            .addTopics(demo.toBuilder().removePartitions(1)).addTopics(other).build());
            CliRun paged = format.equals("--json") ? topics("--describe", "--json") : topics("--describe");
            assertEquals(0, paged.exitCode(), paged.err());
            assertEquals(one.out(), paged.out(), format);
            unpaged = one.out();
        }
        assertTrue(unpaged.startsWith("{\"topics\": [{\"name\": \"demo\""), unpaged);
        List<DescribeTopicsRequest> sent = node.requests().stream().map(r -> (DescribeTopicsRequest) r).toList();
        DescribeTopicsRequest second = sent.get(sent.size() - 1);
        assertEquals(AdminClient.DESCRIBE_PAGE_PARTITIONS, second.getResponsePartitionLimit());
        assertEquals("demo", second.getCursor().getTopicName());
        assertEquals(1, second.getCursor().getPartitionIndex());
    }

    @Test
    void verboseAddsTheStackTraceToAnError() {
        CliRun run = topics("--create", "--topic", "t", "--partitions", "0", "--verbose");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("Error: INVALID_PARTITIONS: "), run.err());
        assertTrue(run.err().contains("\tat "), run.err());
        run = topics("--create", "--topic", "t", "--partitions", "0");
        assertEquals(1, run.errLines(), "one line without --verbose");
    }
}

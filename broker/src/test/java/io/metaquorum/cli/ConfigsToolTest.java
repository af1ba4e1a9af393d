package io.metaquorum.cli;

import static io.metaquorum.cli.AdminResponses.config;
import static io.metaquorum.cli.AdminResponses.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.client.InProcessCluster;
import io.metaquorum.client.ScriptedAdminService;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.ConfigOperation;
import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribeConfigsResponse;
import io.metaquorum.protocol.DescribeConfigsResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** mq-configs against a scripted node. */
class ConfigsToolTest {
    private final InProcessCluster cluster = new InProcessCluster();
    private final ScriptedAdminService node = new ScriptedAdminService();
    private HostPort address;

    @AfterEach
    void stop() {
        cluster.close();
    }

    private CliRun configs(String... args) {
        if (address == null) {
            address = cluster.node(1, node);
        }
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", address.toString(),
                "--entity-type", "topics"));
        all.addAll(List.of(args));
        return CliRun.of((argv, out, err) -> CommandLines.execute(new ConfigsTool(cluster::client), argv, out, err),
                all.toArray(String[]::new));
    }

    private void assertRefused(CliRun run, String expectedErr) {
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(expectedErr, run.err().strip());
        assertEquals(0, node.requests().size());
    }

    private static DescribeConfigsResponse described() {
        return DescribeConfigsResponse.newBuilder().setHeader(ok()).addResults(DescribeConfigsResult.newBuilder()
                .setResourceName("t").addConfigs(config("retention.ms", "1000", ConfigSource.DYNAMIC_TOPIC_CONFIG))
                .addConfigs(config("cleanup.policy", "compact", ConfigSource.DYNAMIC_TOPIC_CONFIG))
                .addConfigs(config("segment.bytes", "1073741824", ConfigSource.DEFAULT_CONFIG))).build();
    }

    @Test
    void describePrintsTheTopicsOwnConfigsAsKafkaConfigsDoes() {
        node.answer(described());
        CliRun run = configs("--entity-name", "t", "--describe");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Dynamic configs for topic t are:\n"
                + "  cleanup.policy=compact sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact}\n"
                + "  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000}\n", run.out());
    }

    @Test
    void describeJsonListsEveryConfigWithItsSource() {
        node.answer(described());
        CliRun run = configs("--entity-name", "t", "--describe", "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("{\"entityType\": \"topics\", \"entities\": [{\"entityName\": \"t\", \"configs\": ["
                + "{\"name\": \"cleanup.policy\", \"value\": \"compact\", \"source\": \"DYNAMIC_TOPIC_CONFIG\", "
                + "\"sensitive\": false, \"readOnly\": false}, "
                + "{\"name\": \"retention.ms\", \"value\": \"1000\", \"source\": \"DYNAMIC_TOPIC_CONFIG\", "
                + "\"sensitive\": false, \"readOnly\": false}, "
                + "{\"name\": \"segment.bytes\", \"value\": \"1073741824\", \"source\": \"DEFAULT_CONFIG\", "
                + "\"sensitive\": false, \"readOnly\": false}]}]}\n", run.out());
    }

    @Test
    void describeOfAnUnknownTopicNamesTheCode() {
        node.answer(DescribeConfigsResponse.newBuilder().setHeader(ok()).addResults(DescribeConfigsResult.newBuilder()
                .setResourceName("t").setResourceTypeValue(2).setErrorCode(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                .setErrorMessage("Topic 't' does not exist.")).build());
        CliRun run = configs("--entity-name", "t", "--describe");
        assertEquals(1, run.exitCode());
        assertEquals("Error: UNKNOWN_TOPIC_OR_PARTITION: Topic 't' does not exist.", run.err().strip());
    }

    @Test
    void alterSendsSetsAndDeletes() {
        node.answer(IncrementalAlterConfigsResponse.newBuilder().setHeader(ok()).addResults(
                AlterConfigsResourceResult.newBuilder().setResourceTypeValue(2).setResourceName("t")).build());
        CliRun run = configs("--entity-name", "t", "--alter", "--add-config", "retention.ms=1000,x.list=[a,b]",
                "--delete-config", "cleanup.policy");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Completed updating config for topic t.\n", run.out());
        List<AlterableConfig> sent = ((IncrementalAlterConfigsRequest) node.requests().get(0)).getResources(0)
                .getConfigsList();
        assertEquals(List.of("retention.ms", "x.list", "cleanup.policy"), sent.stream().map(AlterableConfig::getName)
                .toList());
        assertEquals("a,b", sent.get(1).getValue());
        assertEquals(ConfigOperation.DELETE, sent.get(2).getConfigOperation());
    }

    @Test
    void aRefusedAlterNamesTheCode() {
        node.answer(IncrementalAlterConfigsResponse.newBuilder().setHeader(ok()).addResults(
                AlterConfigsResourceResult.newBuilder().setResourceTypeValue(2).setResourceName("t")
                        .setErrorCode(ErrorCode.INVALID_CONFIG).setErrorMessage("Invalid value -5 for retention.bytes"))
                .build());
        CliRun run = configs("--entity-name", "t", "--alter", "--add-config", "retention.bytes=-5");
        assertEquals(1, run.exitCode());
        assertEquals("Error: INVALID_CONFIG: Invalid value -5 for retention.bytes", run.err().strip());
    }

    @Test
    void theToolsOwnChecks() {
        assertRefused(configs("--entity-name", "t"), "Error: INVALID_REQUEST: Give exactly one of --describe, --alter.");
        assertRefused(configs("--alter", "--entity-name", "t"),
                "Error: INVALID_REQUEST: --alter needs --add-config or --delete-config.");
        assertRefused(configs("--alter", "--add-config", "a=b"), "Error: INVALID_REQUEST: --alter needs --entity-name.");
        assertRefused(configs("--alter", "--entity-name", "t", "--add-config", "retention.ms"),
                "Error: INVALID_CONFIG: Invalid config entry 'retention.ms': expected key=value.");
        assertRefused(configs("--alter", "--entity-name", "t", "--add-config", "a=1", "--delete-config", "a"),
                "Error: INVALID_REQUEST: Config(s) a are in both --add-config and --delete-config.");
        assertRefused(configs("--describe", "--entity-name", "t", "--add-config", "a=1"),
                "Error: INVALID_REQUEST: --add-config and --delete-config can only be used with --alter.");
    }

    @Test
    void onlyTopicsAreSupported() {
        CliRun run = CliRun.of((argv, out, err) -> CommandLines.execute(new ConfigsTool(cluster::client), argv, out,
                err), "--bootstrap-server", "127.0.0.1:1", "--entity-type", "brokers", "--describe");
        assertEquals(1, run.exitCode());
        assertEquals("Error: INVALID_REQUEST: --entity-type brokers is not supported; topics and users are.", run.err().strip());
    }

    private CliRun users(String... args) {
        if (address == null) {
            address = cluster.node(1, node);
        }
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", address.toString(),
                "--entity-type", "users"));
        all.addAll(List.of(args));
        return CliRun.of((argv, out, err) -> CommandLines.execute(new ConfigsTool(cluster::client), argv, out, err),
                all.toArray(String[]::new));
    }

    @Test
    void usersAlterSendsASaltedPasswordAndADeletion() {
        node.answer(io.metaquorum.protocol.AlterUserScramCredentialsResponse.newBuilder().setHeader(ok())
                .addResults(io.metaquorum.protocol.AlterUserScramCredentialsResult.newBuilder().setUser("alice"))
                .build());
        CliRun run = users("--entity-name", "alice", "--alter", "--add-config",
                "SCRAM-SHA-256=[iterations=8192,password=alice-secret]", "--delete-config", "SCRAM-SHA-512");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Completed updating config for user alice.\n", run.out());
        io.metaquorum.protocol.AlterUserScramCredentialsRequest sent =
                (io.metaquorum.protocol.AlterUserScramCredentialsRequest) node.requests().get(0);
        io.metaquorum.protocol.ScramCredentialUpsertion upsertion = sent.getUpsertions(0);
        assertEquals("alice", upsertion.getName());
        assertEquals(1, upsertion.getMechanism());
        assertEquals(8192, upsertion.getIterations());
        assertEquals(com.google.protobuf.ByteString.copyFrom(io.metaquorum.metadata.scram.ScramKeys.saltedPassword(
                io.metaquorum.metadata.scram.ScramMechanism.SCRAM_SHA_256, "alice-secret",
                upsertion.getSalt().toByteArray(), 8192)), upsertion.getSaltedPassword());
        assertEquals(2, sent.getDeletions(0).getMechanism());
    }

    @Test
    void usersDescribePrintsAsKafkaConfigsDoes() {
        node.answer(io.metaquorum.protocol.DescribeUserScramCredentialsResponse.newBuilder().setHeader(ok())
                .addResults(io.metaquorum.protocol.DescribeUserScramCredentialsResult.newBuilder().setUser("alice")
                        .addCredentialInfos(io.metaquorum.protocol.ScramCredentialInfo.newBuilder().setMechanism(1)
                                .setIterations(8192))
                        .addCredentialInfos(io.metaquorum.protocol.ScramCredentialInfo.newBuilder().setMechanism(2)
                                .setIterations(4096)))
                .build());
        CliRun run = users("--describe");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-256=iterations=8192, "
                + "SCRAM-SHA-512=iterations=4096\n", run.out());
    }

    @Test
    void usersRefuseAnUnknownMechanism() {
        CliRun run = users("--entity-name", "alice", "--alter", "--delete-config", "SCRAM-SHA-1");
        assertEquals(1, run.exitCode());
        assertEquals("Error: INVALID_CONFIG: 'SCRAM-SHA-1' is not a user config this tool sets; SCRAM-SHA-256 and "
                + "SCRAM-SHA-512 are.", run.err().strip());
    }
}

package io.metaquorum.server.admin;

import static io.metaquorum.server.admin.KafkaApisTestNode.ADMIN;
import static io.metaquorum.server.admin.KafkaApisTestNode.MALLORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfigCollection;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigType;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's DescribeConfigs and IncrementalAlterConfigs on a node with the authorizer on: what
 * Kafka's client reads (fields, sources, types, synonyms, per-resource codes and messages, and
 * the exception its client raises for each code), over a real controller.
 */
class KafkaConfigApisTest {
    private static final byte TOPIC = ConfigResource.Type.TOPIC.id();
    private static final byte BROKER = ConfigResource.Type.BROKER.id();

    private KafkaApisTestNode node;

    @BeforeEach
    void start() throws Exception {
        node = new KafkaApisTestNode();
        node.createTopic("orders");
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private static DescribeConfigsRequest describe(short version, boolean synonyms, byte type, String name,
                                                   List<String> keys) {
        return new DescribeConfigsRequest.Builder(new DescribeConfigsRequestData().setIncludeSynonyms(synonyms)
                .setIncludeDocumentation(version >= 3).setResources(List.of(
                        new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(type)
                                .setResourceName(name).setConfigurationKeys(keys)))).build(version);
    }

    private static IncrementalAlterConfigsRequest alter(boolean validateOnly, byte type, String name,
                                                        AlterConfigOp.OpType op, String key, String value) {
        AlterableConfigCollection configs = new AlterableConfigCollection();
        configs.add(new AlterableConfig().setName(key).setConfigOperation(op.id()).setValue(value));
        IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection resources =
                new IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection();
        resources.add(new AlterConfigsResource().setResourceType(type).setResourceName(name).setConfigs(configs));
        return new IncrementalAlterConfigsRequest.Builder(new IncrementalAlterConfigsRequestData()
                .setResources(resources).setValidateOnly(validateOnly)).build(ApiKeys.INCREMENTAL_ALTER_CONFIGS
                .latestVersion());
    }

    private AlterConfigsResourceResponse alterOne(boolean validateOnly, byte type, String name, AlterConfigOp.OpType op,
                                                  String key, String value) throws Exception {
        IncrementalAlterConfigsResponse response = node.call(ADMIN, alter(validateOnly, type, name, op, key, value));
        assertEquals(1, response.data().responses().size());
        return response.data().responses().get(0);
    }

    private DescribeConfigsResult describeOne(short version, boolean synonyms, byte type, String name, List<String> keys)
            throws Exception {
        DescribeConfigsResponse response = node.call(ADMIN, describe(version, synonyms, type, name, keys));
        assertEquals(1, response.data().results().size());
        return response.data().results().get(0);
    }

    private static Map<String, DescribeConfigsResourceResult> byName(DescribeConfigsResult result) {
        Map<String, DescribeConfigsResourceResult> out = new TreeMap<>();
        result.configs().forEach(c -> out.put(c.name(), c));
        return out;
    }

    @Test
    void aTopicsConfigsAreTheSetOnesAndTheCatalogueDefaultsWithSourcesTypesAndSynonyms() throws Exception {
        AlterConfigsResourceResponse set = alterOne(false, TOPIC, "orders", AlterConfigOp.OpType.SET,
                "retention.ms", "60000");
        assertEquals(Errors.NONE.code(), set.errorCode(), set.errorMessage());
        assertNull(set.errorMessage());
        assertEquals(TOPIC, set.resourceType());
        assertEquals("orders", set.resourceName());
        node.awaitImage(() -> !node.gateway.committedImage().configs().configs(
                new io.metaquorum.metadata.image.ConfigResource(
                        io.metaquorum.protocol.ConfigResourceType.CONFIG_RESOURCE_TOPIC, "orders")).isEmpty());

        DescribeConfigsResult result = describeOne(ApiKeys.DESCRIBE_CONFIGS.latestVersion(), true, TOPIC, "orders",
                null);
        assertEquals(Errors.NONE.code(), result.errorCode());
        assertNull(result.errorMessage());
        Map<String, DescribeConfigsResourceResult> configs = byName(result);
        DescribeConfigsResourceResult retention = configs.get("retention.ms");
        assertEquals("60000", retention.value());
        assertEquals(ConfigSource.TOPIC_CONFIG.id(), retention.configSource());
        assertEquals(ConfigType.LONG.id(), retention.configType());
        assertFalse(retention.readOnly());
        assertFalse(retention.isSensitive());
        assertNull(retention.documentation());
        assertEquals(List.of(
                new DescribeConfigsSynonym().setName("retention.ms").setValue("60000")
                        .setSource(ConfigSource.TOPIC_CONFIG.id()),
                new DescribeConfigsSynonym().setName("retention.ms").setValue("604800000")
                        .setSource(ConfigSource.DEFAULT_CONFIG.id())), retention.synonyms());
        DescribeConfigsResourceResult cleanup = configs.get("cleanup.policy");
        assertEquals("delete", cleanup.value());
        assertEquals(ConfigSource.DEFAULT_CONFIG.id(), cleanup.configSource());
        assertEquals(ConfigType.LIST.id(), cleanup.configType());
        assertEquals(1, cleanup.synonyms().size());
        assertTrue(configs.size() > 30, "every catalogue config: " + configs.keySet());
    }

    @Test
    void theNamesFilterAndTheOldestVersionCarryOnlyWhatTheyAskAndCan() throws Exception {
        short oldest = ApiKeys.DESCRIBE_CONFIGS.oldestVersion();
        DescribeConfigsResult one = describeOne(oldest, false, TOPIC, "orders", List.of("segment.ms", "no.such"));
        assertEquals(List.of("segment.ms"), one.configs().stream().map(DescribeConfigsResourceResult::name).toList());
        DescribeConfigsResourceResult segment = one.configs().get(0);
        assertEquals(ConfigSource.DEFAULT_CONFIG.id(), segment.configSource());
        assertEquals(List.of(), segment.synonyms(), "not asked for");
        assertEquals(ConfigType.UNKNOWN.id(), segment.configType(), "v" + oldest + " has no config type");

        DescribeConfigsResult none = describeOne(oldest, false, TOPIC, "orders", List.of());
        assertEquals(Errors.NONE.code(), none.errorCode());
        assertEquals(List.of(), none.configs(), "Kafka's empty key list asks for no config");
    }

    @Test
    void eachResourceAnswersItsOwnError() throws Exception {
        DescribeConfigsResponse response = node.call(ADMIN, new DescribeConfigsRequest.Builder(
                new DescribeConfigsRequestData().setResources(List.of(
                        new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(TOPIC)
                                .setResourceName("missing"),
                        new DescribeConfigsRequestData.DescribeConfigsResource()
                                .setResourceType(ConfigResource.Type.BROKER_LOGGER.id()).setResourceName("1"),
                        new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(BROKER)
                                .setResourceName("1"),
                        new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(TOPIC)
                                .setResourceName("orders")))).build(ApiKeys.DESCRIBE_CONFIGS.latestVersion()));
        List<DescribeConfigsResult> results = response.data().results();
        assertEquals(4, results.size());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), results.get(0).errorCode());
        assertEquals("The topic 'missing' does not exist.", results.get(0).errorMessage());
        assertInstanceOf(UnknownTopicOrPartitionException.class,
                Errors.forCode(results.get(0).errorCode()).exception());
        assertEquals(Errors.INVALID_REQUEST.code(), results.get(1).errorCode());
        assertTrue(results.get(1).errorMessage().contains("BROKER_LOGGER"), results.get(1).errorMessage());
        assertEquals(ConfigResource.Type.BROKER_LOGGER.id(), results.get(1).resourceType());
        assertEquals(Errors.NONE.code(), results.get(2).errorCode(), "a broker's dynamic configs: none set");
        assertEquals(List.of(), results.get(2).configs());
        assertEquals(Errors.NONE.code(), results.get(3).errorCode());
        assertEquals("orders", results.get(3).resourceName());
    }

    @Test
    void aCallerWithoutDescribeConfigsGetsTheResourcesAuthorizationErrorWhetherOrNotItExists() throws Exception {
        for (String topic : List.of("orders", "missing")) {
            DescribeConfigsResponse response = node.call(MALLORY, describe(ApiKeys.DESCRIBE_CONFIGS.latestVersion(),
                    false, TOPIC, topic, null));
            DescribeConfigsResult result = response.data().results().get(0);
            assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), result.errorCode(), topic);
            assertEquals(List.of(), result.configs());
            assertInstanceOf(TopicAuthorizationException.class, Errors.forCode(result.errorCode()).exception());
        }
        DescribeConfigsResponse broker = node.call(MALLORY, describe(ApiKeys.DESCRIBE_CONFIGS.latestVersion(), false,
                BROKER, "1", null));
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), broker.data().results().get(0).errorCode());
        assertInstanceOf(ClusterAuthorizationException.class,
                Errors.forCode(broker.data().results().get(0).errorCode()).exception());

        IncrementalAlterConfigsResponse altered = node.call(MALLORY, alter(false, TOPIC, "orders",
                AlterConfigOp.OpType.SET, "retention.ms", "1000"));
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), altered.data().responses().get(0).errorCode());
    }

    @Test
    void aBadValueIsAnInvalidConfigAsKafkasClientRaisesIt() throws Exception {
        AlterConfigsResourceResponse bad = alterOne(false, TOPIC, "orders", AlterConfigOp.OpType.SET,
                "retention.ms", "soon");
        assertEquals(Errors.INVALID_CONFIG.code(), bad.errorCode());
        assertTrue(bad.errorMessage().startsWith("Invalid value soon for configuration retention.ms"),
                bad.errorMessage());
        assertInstanceOf(InvalidConfigurationException.class, Errors.forCode(bad.errorCode()).exception());

        AlterConfigsResourceResponse unknown = alterOne(false, TOPIC, "orders", AlterConfigOp.OpType.SET,
                "no.such.config", "1");
        assertEquals(Errors.INVALID_CONFIG.code(), unknown.errorCode());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), alterOne(false, TOPIC, "missing",
                AlterConfigOp.OpType.SET, "retention.ms", "1").errorCode());
        AlterConfigsResourceResponse broker = alterOne(false, BROKER, "1", AlterConfigOp.OpType.SET,
                "log.retention.ms", "1");
        assertEquals(Errors.INVALID_REQUEST.code(), broker.errorCode());
        assertInstanceOf(InvalidRequestException.class, Errors.forCode(broker.errorCode()).exception());
    }

    @Test
    void validateOnlyWritesNothingDeleteRemovesAndAppendIsRefused() throws Exception {
        assertEquals(Errors.NONE.code(), alterOne(true, TOPIC, "orders", AlterConfigOp.OpType.SET, "segment.ms",
                "1000").errorCode());
        assertEquals(ConfigSource.DEFAULT_CONFIG.id(), describeOne(ApiKeys.DESCRIBE_CONFIGS.latestVersion(), false,
                TOPIC, "orders", List.of("segment.ms")).configs().get(0).configSource(), "validate_only wrote it");

        assertEquals(Errors.NONE.code(), alterOne(false, TOPIC, "orders", AlterConfigOp.OpType.SET, "segment.ms",
                "1000").errorCode());
        node.awaitImage(() -> describedSource("segment.ms") == ConfigSource.TOPIC_CONFIG.id());
        assertEquals(Errors.NONE.code(), alterOne(false, TOPIC, "orders", AlterConfigOp.OpType.DELETE, "segment.ms",
                null).errorCode());
        node.awaitImage(() -> describedSource("segment.ms") == ConfigSource.DEFAULT_CONFIG.id());

        AlterConfigsResourceResponse append = alterOne(false, TOPIC, "orders", AlterConfigOp.OpType.APPEND,
                "cleanup.policy", "compact");
        assertEquals(Errors.INVALID_REQUEST.code(), append.errorCode());
        assertTrue(append.errorMessage().contains("APPEND is not supported"), append.errorMessage());
    }

    private byte describedSource(String name) {
        try {
            return describeOne(ApiKeys.DESCRIBE_CONFIGS.latestVersion(), false, TOPIC, "orders", List.of(name))
                    .configs().get(0).configSource();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

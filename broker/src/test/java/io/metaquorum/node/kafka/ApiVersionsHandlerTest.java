package io.metaquorum.node.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.NodeRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.Test;

/** ApiVersions answers from what is registered, itself included, and refuses a malformed client name. */
class ApiVersionsHandlerTest {
    private static ApiVersionsResponse ask(KafkaApis apis, ApiVersionsRequestData data, short version) {
        List<AbstractResponse> replies = new ArrayList<>();
        apis.handle(new KafkaCall(CallOrigin.CLIENT, "EXTERNAL", version),
                new ApiVersionsRequest(data, version), replies::add);
        assertEquals(1, replies.size(), "one reply");
        return (ApiVersionsResponse) replies.get(0);
    }

    @Test
    void withNoOtherApiApiVersionsAdvertisesItselfAlone() {
        KafkaApis apis = KafkaApis.withApiVersions(Map.of());
        ApiVersionsResponse response = ask(apis, new ApiVersionsRequestData().setClientSoftwareName("apache-kafka-java")
                .setClientSoftwareVersion("4.4.0"), (short) 3);
        assertEquals(Errors.NONE.code(), response.data().errorCode());
        assertEquals(List.of(ApiKeys.API_VERSIONS.id),
                response.data().apiKeys().stream().map(ApiVersion::apiKey).toList());
    }

    /** What a node serves, and nothing more: the admin APIs Kafka's tools use. */
    @Test
    void aNodeAdvertisesExactlyTheAdminApisItServes() {
        KafkaApis apis = KafkaApis.forNode(new NodeRequests(null, null), 1, reply -> { }, "CONTROLLER");
        List<ApiKeys> expected = List.of(ApiKeys.METADATA, ApiKeys.API_VERSIONS, ApiKeys.CREATE_TOPICS,
                ApiKeys.DELETE_TOPICS, ApiKeys.DESCRIBE_ACLS, ApiKeys.CREATE_ACLS, ApiKeys.DELETE_ACLS,
                ApiKeys.DESCRIBE_CONFIGS, ApiKeys.CREATE_PARTITIONS, ApiKeys.INCREMENTAL_ALTER_CONFIGS,
                ApiKeys.LIST_PARTITION_REASSIGNMENTS, ApiKeys.DESCRIBE_QUORUM, ApiKeys.DESCRIBE_CLUSTER,
                ApiKeys.DESCRIBE_TOPIC_PARTITIONS, ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS,
                ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, ApiKeys.DESCRIBE_CLIENT_QUOTAS);
        assertEquals(expected.stream().map(key -> key.id).sorted().toList(),
                ask(apis, new ApiVersionsRequestData(), (short) 0).data().apiKeys().stream().map(ApiVersion::apiKey)
                        .toList());
    }

    @Test
    void everyRegisteredApiIsAdvertisedAtTheVersionsKafkaKnowsInKeyOrder() {
        KafkaApiHandler none = (call, request, reply) -> { };
        KafkaApis apis = KafkaApis.withApiVersions(Map.of(ApiKeys.METADATA, none, ApiKeys.CREATE_TOPICS, none));
        ApiVersionsResponse response = ask(apis, new ApiVersionsRequestData(), (short) 0);
        assertEquals(List.of(ApiKeys.METADATA.id, ApiKeys.API_VERSIONS.id, ApiKeys.CREATE_TOPICS.id),
                response.data().apiKeys().stream().map(ApiVersion::apiKey).toList());
        ApiVersion metadata = response.apiVersion(ApiKeys.METADATA.id);
        assertEquals(ApiKeys.METADATA.oldestVersion(), metadata.minVersion());
        assertEquals(ApiKeys.METADATA.latestVersion(), metadata.maxVersion());
        assertEquals(3, ask(apis, new ApiVersionsRequestData(), (short) 0).data().apiKeys().size(),
                "a second answer is whole too: each answer has its own copy of the list");
    }

    @Test
    void aClientSoftwareNameKafkaRefusesIsAnsweredInvalidRequest() {
        ApiVersionsResponse response = ask(KafkaApis.withApiVersions(Map.of()),
                new ApiVersionsRequestData().setClientSoftwareName("bad name!").setClientSoftwareVersion("1"),
                (short) 3);
        assertEquals(Errors.INVALID_REQUEST.code(), response.data().errorCode());
    }

    @Test
    void theUnsupportedVersionAnswerCarriesOurRange() {
        ApiVersionsResponse response = ApiVersionsHandler.unsupportedVersion(KafkaApis.withApiVersions(Map.of())
                .advertised());
        assertEquals(Errors.UNSUPPORTED_VERSION.code(), response.data().errorCode());
        assertTrue(response.apiVersion(ApiKeys.API_VERSIONS.id).maxVersion() == ApiKeys.API_VERSIONS.latestVersion());
    }
}

package io.metaquorum.node.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.node.admin.CallOrigin;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.junit.jupiter.api.Test;

/**
 * The APIs as a SASL listener serves them: the same set plus SaslHandshake and
 * SaslAuthenticate, advertised at every version Kafka's client knows, and answered
 * ILLEGAL_SASL_STATE when they come after authentication.
 */
class KafkaApisSaslTest {
    private final KafkaApis plain = KafkaApis.withApiVersions(Map.of(ApiKeys.DESCRIBE_CLUSTER,
            (call, request, reply) -> reply.accept(new DescribeClusterResponse(new DescribeClusterResponseData()))));

    @Test
    void aSaslListenerAdvertisesTheSaslApisBesidesTheSameSet() {
        List<Short> plainKeys = advertised(plain);
        List<Short> saslKeys = advertised(plain.withSasl());
        assertEquals(List.of(ApiKeys.API_VERSIONS.id, ApiKeys.DESCRIBE_CLUSTER.id), plainKeys);
        assertEquals(List.of(ApiKeys.SASL_HANDSHAKE.id, ApiKeys.API_VERSIONS.id, ApiKeys.SASL_AUTHENTICATE.id,
                ApiKeys.DESCRIBE_CLUSTER.id), saslKeys);
        ApiVersion authenticate = plain.withSasl().advertised().find(ApiKeys.SASL_AUTHENTICATE.id);
        assertEquals(ApiKeys.SASL_AUTHENTICATE.latestVersion(), authenticate.maxVersion());
    }

    @Test
    void saslRequestsReachingTheApisComeAfterAuthenticationAndAreIllegalSaslState() {
        SaslAuthenticateResponse response = (SaslAuthenticateResponse) handle(plain.withSasl(),
                new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()).build((short) 2));
        assertEquals(Errors.ILLEGAL_SASL_STATE, response.error());
    }

    private static List<Short> advertised(KafkaApis apis) {
        ApiVersionsResponse response = (ApiVersionsResponse) handle(apis,
                new ApiVersionsRequest(new ApiVersionsRequestData(), (short) 0));
        return response.data().apiKeys().stream().map(ApiVersion::apiKey).toList();
    }

    private static AbstractResponse handle(KafkaApis apis, AbstractRequest request) {
        AtomicReference<AbstractResponse> answer = new AtomicReference<>();
        apis.handle(new KafkaCall(CallOrigin.CLIENT, "SASL_PLAINTEXT", request.version()), request, answer::set);
        return answer.get();
    }
}

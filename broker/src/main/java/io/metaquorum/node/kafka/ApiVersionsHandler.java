package io.metaquorum.node.kafka;

import java.util.function.Consumer;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;

/**
 * ApiVersions: the first request of every Kafka client on a new connection, answered with
 * the APIs this node serves ({@link KafkaApis#advertised()}) so the client picks versions
 * both sides know. A request whose client software name or version breaks Kafka's rule for
 * them is answered INVALID_REQUEST, as Kafka's brokers do. A request at a version newer than
 * ours cannot be parsed at all; the listener answers it with {@link #unsupportedVersion}.
 */
public final class ApiVersionsHandler implements KafkaApiHandler {
    private final ApiVersionCollection advertised;

    /** @param advertised what to answer: every API registered, this one among them */
    public ApiVersionsHandler(ApiVersionCollection advertised) {
        this.advertised = advertised;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        ApiVersionsRequest apiVersions = (ApiVersionsRequest) request;
        if (!apiVersions.isValid()) {
            reply.accept(apiVersions.getErrorResponse(0, new InvalidRequestException("client software name '"
                    + apiVersions.data().clientSoftwareName() + "' or version '"
                    + apiVersions.data().clientSoftwareVersion() + "' has characters Kafka does not allow")));
            return;
        }
        reply.accept(new ApiVersionsResponse(new ApiVersionsResponseData().setErrorCode(Errors.NONE.code())
                .setApiKeys(copy(advertised))));
    }

    /**
     * The answer to an ApiVersions request at a version this node does not know: written at
     * version 0, which every client can read, with UNSUPPORTED_VERSION and the versions this
     * node serves, so the client retries at one of them.
     */
    public static ApiVersionsResponse unsupportedVersion(ApiVersionCollection advertised) {
        return new ApiVersionsResponse(new ApiVersionsResponseData().setErrorCode(Errors.UNSUPPORTED_VERSION.code())
                .setApiKeys(copy(advertised)));
    }

    /** A fresh collection: an element of Kafka's linked collections belongs to one collection at a time. */
    private static ApiVersionCollection copy(ApiVersionCollection versions) {
        ApiVersionCollection copy = new ApiVersionCollection();
        for (ApiVersion version : versions) {
            copy.add(version.duplicate());
        }
        return copy;
    }
}

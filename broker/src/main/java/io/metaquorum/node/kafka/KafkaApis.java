package io.metaquorum.node.kafka;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * The Kafka APIs a node serves on its Kafka-protocol listener, each over the same calls as the
 * gRPC API. Only what is registered here is advertised by ApiVersions, at every version
 * Kafka's client library of the pinned release knows for it; a request for anything else is
 * answered UNSUPPORTED_VERSION in the request's own response shape.
 */
public final class KafkaApis {
    private final EnumMap<ApiKeys, KafkaApiHandler> handlers;

    /** @param handlers what serves each API; ApiVersions among them */
    public KafkaApis(Map<ApiKeys, KafkaApiHandler> handlers) {
        this.handlers = handlers.isEmpty() ? new EnumMap<>(ApiKeys.class) : new EnumMap<>(handlers);
    }

    /** Whether {@code key} is served at {@code version}. */
    public boolean serves(ApiKeys key, short version) {
        return handlers.containsKey(key) && version >= key.oldestVersion() && version <= key.latestVersion();
    }

    /** What ApiVersions advertises: every served API, in API key order, at the versions it is served. */
    public ApiVersionCollection advertised() {
        ApiVersionCollection versions = new ApiVersionCollection();
        for (ApiKeys key : handlers.keySet()) {
            versions.add(new ApiVersion().setApiKey(key.id).setMinVersion(key.oldestVersion())
                    .setMaxVersion(key.latestVersion()));
        }
        return versions;
    }

    /** Serves {@code request}; {@code reply} is called exactly once, maybe later and on another thread. */
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        ApiKeys key = request.apiKey();
        if (!serves(key, request.version())) {
            reply.accept(request.getErrorResponse(new UnsupportedVersionException(
                    key + " v" + request.version() + " is not served on this listener")));
            return;
        }
        handlers.get(key).handle(call, request, reply);
    }
}

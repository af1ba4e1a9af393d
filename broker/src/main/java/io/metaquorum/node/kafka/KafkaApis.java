package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.NodeRequests;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
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

    /**
     * The APIs a node serves on its Kafka-protocol listeners, each over {@code requests}, the
     * same calls its gRPC API makes. Each API adapter registers its handlers here with one
     * line; ApiVersions comes last, since it advertises whatever is registered by then.
     *
     * @param nodeId             this node's id, for the answers that name it
     * @param quorum             where DescribeQuorum gets the raft leader's answer
     * @param quorumListenerName the name DescribeQuorum v2 gives the controllers' raft listeners
     */
    public static KafkaApis forNode(NodeRequests requests, int nodeId, QuorumDescriptions quorum,
                                    String quorumListenerName) {
        EnumMap<ApiKeys, KafkaApiHandler> handlers = new EnumMap<>(ApiKeys.class);
        TopicApis.register(handlers, requests.admin(), nodeId);
        ConfigAclApis.register(handlers, requests.admin(), quorum, quorumListenerName);
        ScramApis.register(handlers, requests.admin());
        return withApiVersions(handlers);
    }

    /** {@code handlers} and ApiVersions, which advertises them and itself. */
    public static KafkaApis withApiVersions(Map<ApiKeys, KafkaApiHandler> handlers) {
        EnumMap<ApiKeys, KafkaApiHandler> all = new EnumMap<>(ApiKeys.class);
        all.putAll(handlers);
        Set<ApiKeys> served = EnumSet.of(ApiKeys.API_VERSIONS);
        served.addAll(all.keySet());
        all.put(ApiKeys.API_VERSIONS, new ApiVersionsHandler(advertisedOf(served)));
        return new KafkaApis(all);
    }

    /**
     * These APIs as a SASL listener serves them: SaslHandshake and SaslAuthenticate besides,
     * and ApiVersions advertising them too. The listener runs the exchange before the client
     * has authenticated; the handlers here answer the requests that come after.
     */
    public KafkaApis withSasl() {
        EnumMap<ApiKeys, KafkaApiHandler> all = new EnumMap<>(handlers);
        all.remove(ApiKeys.API_VERSIONS);
        KafkaApiHandler afterAuthentication = new SaslAfterAuthenticationHandler();
        all.put(ApiKeys.SASL_HANDSHAKE, afterAuthentication);
        all.put(ApiKeys.SASL_AUTHENTICATE, afterAuthentication);
        return withApiVersions(all);
    }

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
        return advertisedOf(handlers.keySet());
    }

    private static ApiVersionCollection advertisedOf(Set<ApiKeys> keys) {
        ApiVersionCollection versions = new ApiVersionCollection();
        for (ApiKeys key : keys) {
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

package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Kafka's own {@code StandardAuthorizer} (kafka-metadata 4.4.0), loaded with the same ACLs
 * and settings as an image, answering the same requests: the oracle our {@link Authorizer}
 * is compared with. ACLs go in as a broker's would: the first half as a snapshot
 * ({@code loadSnapshot}), the rest as records ({@code addAcl}), then the removals
 * ({@code removeAcl}), then {@code completeInitialLoad}.
 */
final class KafkaAuthorizerOracle implements AutoCloseable {
    static {
        // Kafka logs its configuration and each load at INFO: thousands of lines over a property run.
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.kafka.authorizer.logger", "warn");
    }

    private final Metrics metrics = new Metrics();
    private final StandardAuthorizer authorizer = new StandardAuthorizer();

    KafkaAuthorizerOracle(Set<String> superUsers, boolean allowEveryoneIfNoAclFound, List<TestAcl> added,
                          List<TestAcl> removed) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(StandardAuthorizer.SUPER_USERS_CONFIG, String.join(";", superUsers));
        configs.put(StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG,
                Boolean.toString(allowEveryoneIfNoAclFound));
        configs.put("node.id", "1");
        authorizer.configure(configs);
        // Its authorize() records a metric per decision and fails without them.
        authorizer.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        Map<Uuid, StandardAcl> snapshot = new LinkedHashMap<>();
        int half = added.size() / 2;
        for (TestAcl acl : added.subList(0, half)) {
            snapshot.put(id(acl), standardAcl(acl));
        }
        authorizer.loadSnapshot(snapshot);
        for (TestAcl acl : added.subList(half, added.size())) {
            authorizer.addAcl(id(acl), standardAcl(acl));
        }
        for (TestAcl acl : removed) {
            authorizer.removeAcl(id(acl));
        }
        authorizer.completeInitialLoad();
    }

    private static Uuid id(TestAcl acl) {
        return new Uuid(acl.uuid().getMostSignificantBits(), acl.uuid().getLeastSignificantBits());
    }

    static StandardAcl standardAcl(TestAcl acl) {
        return new StandardAcl(kafkaType(acl.type()), acl.name(), PatternType.fromCode((byte) acl.pattern().code()),
                acl.principal(), acl.host(), kafkaOperation(acl.operation()),
                AclPermissionType.fromCode((byte) acl.permission().code()));
    }

    private static org.apache.kafka.common.resource.ResourceType kafkaType(ResourceType type) {
        return org.apache.kafka.common.resource.ResourceType.fromCode((byte) type.code());
    }

    private static org.apache.kafka.common.acl.AclOperation kafkaOperation(AclOperation operation) {
        return org.apache.kafka.common.acl.AclOperation.fromCode((byte) operation.code());
    }

    /** Kafka's answer; the request is built as a broker builds it (one LITERAL resource, no audit lines). */
    boolean allowed(String principal, String host, AclOperation operation, ResourceType type, String name) {
        return authorize(List.of(action(operation, type, name)), principal, host).get(0) == AuthorizationResult.ALLOWED;
    }

    static Action action(AclOperation operation, ResourceType type, String name) {
        return new Action(kafkaOperation(operation), new ResourcePattern(kafkaType(type), name, PatternType.LITERAL),
                1, false, false);
    }

    List<AuthorizationResult> authorize(List<Action> actions, String principal, String host) {
        return authorizer.authorize(new RequestContext(kafkaPrincipal(principal), address(host)),
                actions);
    }

    private static InetAddress address(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(host, e);
        }
    }

    /** {@code TYPE:NAME} split at the first colon, as Kafka parses a principal. */
    private static KafkaPrincipal kafkaPrincipal(String principal) {
        int colon = principal.indexOf(':');
        return new KafkaPrincipal(principal.substring(0, colon), principal.substring(colon + 1));
    }

    @Override
    public void close() {
        try {
            authorizer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        metrics.close();
    }

    /** A Metadata request on a plaintext listener: what the authorizer reads of it is the principal and address. */
    private record RequestContext(KafkaPrincipal principal, InetAddress clientAddress)
            implements AuthorizableRequestContext {
        @Override
        public String listenerName() {
            return "PLAINTEXT";
        }

        @Override
        public SecurityProtocol securityProtocol() {
            return SecurityProtocol.PLAINTEXT;
        }

        @Override
        public int requestType() {
            return 3;
        }

        @Override
        public int requestVersion() {
            return 12;
        }

        @Override
        public String clientId() {
            return "oracle";
        }

        @Override
        public int correlationId() {
            return 0;
        }
    }
}

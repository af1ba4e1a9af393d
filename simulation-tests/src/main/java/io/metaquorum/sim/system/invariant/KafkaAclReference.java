package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.protocol.AccessControlEntryRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * The reference the authorization check judges by: Kafka's own {@code StandardAuthorizer}
 * (kafka-metadata 4.4.0) loaded with one image's ACL records and the nodes' settings, asked
 * as a Kafka broker asks it (one LITERAL resource per action, nothing logged). Independent of
 * metaquorum's {@code Authorizer}: it reads the records, not the image's index.
 */
final class KafkaAclReference implements AutoCloseable {
    private final Metrics metrics = new Metrics();
    private final StandardAuthorizer authorizer = new StandardAuthorizer();

    KafkaAclReference(AclsImage acls, AuthorizerSettings settings) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(StandardAuthorizer.SUPER_USERS_CONFIG, String.join(";", settings.superUsers()));
        configs.put(StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG,
                Boolean.toString(settings.allowEveryoneIfNoAclFound()));
        configs.put("node.id", "1");
        authorizer.configure(configs);
        // Its authorize() records a metric per decision and fails without them.
        authorizer.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        Map<Uuid, StandardAcl> snapshot = new LinkedHashMap<>();
        List<AccessControlEntryRecord> records = acls.sortedById();
        for (AccessControlEntryRecord acl : records) {
            snapshot.put(new Uuid(acl.getId().getMostSignificantBits(), acl.getId().getLeastSignificantBits()),
                    new StandardAcl(org.apache.kafka.common.resource.ResourceType.fromCode((byte) acl.getResourceType()),
                            acl.getResourceName(), PatternType.fromCode((byte) acl.getPatternType()),
                            acl.getPrincipal(), acl.getHost(),
                            org.apache.kafka.common.acl.AclOperation.fromCode((byte) acl.getOperation()),
                            AclPermissionType.fromCode((byte) acl.getPermissionType())));
        }
        authorizer.loadSnapshot(snapshot);
        authorizer.completeInitialLoad();
    }

    /** Kafka's answer for {@code principal} ({@code TYPE:NAME}) from {@code host}. */
    boolean allows(String principal, String host, AclOperation operation, ResourceType type, String name) {
        Action action = new Action(org.apache.kafka.common.acl.AclOperation.fromCode((byte) operation.code()),
                new ResourcePattern(org.apache.kafka.common.resource.ResourceType.fromCode((byte) type.code()), name,
                        PatternType.LITERAL), 1, false, false);
        int colon = principal.indexOf(':');
        KafkaPrincipal kafkaPrincipal = new KafkaPrincipal(principal.substring(0, colon),
                principal.substring(colon + 1));
        return authorizer.authorize(new RequestContext(kafkaPrincipal, address(host)), List.of(action)).get(0)
                == AuthorizationResult.ALLOWED;
    }

    private static InetAddress address(String host) {
        try {
            return InetAddress.getByName(host); // a literal address: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(host, e);
        }
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

    /** An admin request on a plaintext listener: the authorizer reads the principal and address. */
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
            return 19;
        }

        @Override
        public int requestVersion() {
            return 7;
        }

        @Override
        public String clientId() {
            return "mq-simulate";
        }

        @Override
        public int correlationId() {
            return 0;
        }
    }
}

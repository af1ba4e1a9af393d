package io.metaquorum.kafka;

import io.metaquorum.protocol.AccessControlEntryRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Kafka 4.4.0's own {@code StandardAuthorizer} (kafka-metadata) loaded with metaquorum's ACL
 * records, as the simulator's authorization check and {@code mq-bench authorize} ask it: the
 * one place that turns our records into Kafka's ACLs and our principals into Kafka's request
 * context, so the reference and the benchmark ask the same Kafka the same way.
 */
public final class KafkaStandardAuthorizer implements AutoCloseable {
    private final Metrics metrics = new Metrics();
    private final StandardAuthorizer authorizer = new StandardAuthorizer();

    /**
     * @param superUsers the {@code super.users} value ({@code ;}-separated principals)
     * @param acls       the ACL records to load, in the order their ids should be taken
     */
    public KafkaStandardAuthorizer(String superUsers, boolean allowEveryoneIfNoAclFound,
                                   List<AccessControlEntryRecord> acls) {
        authorizer.configure(Map.of(StandardAuthorizer.SUPER_USERS_CONFIG, superUsers,
                StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG,
                Boolean.toString(allowEveryoneIfNoAclFound), "node.id", "1"));
        // Its authorize() records a metric per decision and fails without them.
        authorizer.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        Map<Uuid, StandardAcl> snapshot = new LinkedHashMap<>();
        for (AccessControlEntryRecord acl : acls) {
            snapshot.put(new Uuid(acl.getId().getMostSignificantBits(), acl.getId().getLeastSignificantBits()),
                    new StandardAcl(ResourceType.fromCode((byte) acl.getResourceType()), acl.getResourceName(),
                            PatternType.fromCode((byte) acl.getPatternType()), acl.getPrincipal(), acl.getHost(),
                            AclOperation.fromCode((byte) acl.getOperation()),
                            AclPermissionType.fromCode((byte) acl.getPermissionType())));
        }
        authorizer.loadSnapshot(snapshot);
        authorizer.completeInitialLoad();
    }

    /** Kafka's answers to {@code actions} in one call, as a broker asks for one request. */
    public List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions) {
        return authorizer.authorize(context, actions);
    }

    /**
     * The context of a request of Kafka API {@code requestType} (version {@code requestVersion})
     * from {@code principal} ({@code TYPE:NAME}, split at the first colon as Kafka parses it) at
     * the literal address {@code host}, on a plaintext listener.
     */
    public static AuthorizableRequestContext context(String principal, String host, int requestType,
                                                     int requestVersion, String clientId) {
        int colon = principal.indexOf(':');
        KafkaPrincipal kafkaPrincipal = new KafkaPrincipal(principal.substring(0, colon),
                principal.substring(colon + 1));
        return new RequestContext(kafkaPrincipal, address(host), requestType, requestVersion, clientId);
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

    private record RequestContext(KafkaPrincipal principal, InetAddress clientAddress, int requestType,
                                  int requestVersion, String clientId) implements AuthorizableRequestContext {
        @Override
        public String listenerName() {
            return "PLAINTEXT";
        }

        @Override
        public SecurityProtocol securityProtocol() {
            return SecurityProtocol.PLAINTEXT;
        }

        @Override
        public int correlationId() {
            return 0;
        }
    }
}

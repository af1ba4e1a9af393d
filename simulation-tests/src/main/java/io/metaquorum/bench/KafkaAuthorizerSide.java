package io.metaquorum.bench;

import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.MetadataRecord;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Kafka's own {@code StandardAuthorizer} (kafka-metadata 4.4.0) loaded with the same ACL
 * records, asked as a Kafka broker asks it for a Metadata request of every topic: one
 * {@code authorize} call with a DESCRIBE action per topic, not logged when denied (it is a
 * filter). The actions and the request context are built once, outside the timing.
 */
final class KafkaAuthorizerSide implements AutoCloseable {
    private final Metrics metrics = new Metrics();
    private final StandardAuthorizer authorizer = new StandardAuthorizer();
    private final AuthorizableRequestContext context;
    private final List<Action> describeEveryTopic = new ArrayList<>();

    KafkaAuthorizerSide(List<MetadataRecord> aclRecords, List<String> topics, String principal, String host)
            throws IOException {
        authorizer.configure(Map.of(StandardAuthorizer.SUPER_USERS_CONFIG, "",
                StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG, "false", "node.id", "1"));
        authorizer.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        Map<Uuid, StandardAcl> snapshot = new LinkedHashMap<>();
        for (MetadataRecord record : aclRecords) {
            AccessControlEntryRecord acl = record.getAccessControlEntry();
            snapshot.put(new Uuid(acl.getId().getMostSignificantBits(), acl.getId().getLeastSignificantBits()),
                    new StandardAcl(ResourceType.fromCode((byte) acl.getResourceType()), acl.getResourceName(),
                            PatternType.fromCode((byte) acl.getPatternType()), acl.getPrincipal(), acl.getHost(),
                            AclOperation.fromCode((byte) acl.getOperation()),
                            AclPermissionType.fromCode((byte) acl.getPermissionType())));
        }
        authorizer.loadSnapshot(snapshot);
        authorizer.completeInitialLoad();
        context = new Context(kafkaPrincipal(principal), InetAddress.getByName(host));
        for (String topic : topics) {
            describeEveryTopic.add(new Action(AclOperation.DESCRIBE,
                    new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), 1, true, false));
        }
    }

    /** One describe of every topic; returns how many were allowed. */
    int describeEveryTopic() {
        int allowed = 0;
        for (AuthorizationResult result : authorizer.authorize(context, describeEveryTopic)) {
            if (result == AuthorizationResult.ALLOWED) {
                allowed++;
            }
        }
        return allowed;
    }

    /** Whether Kafka allows the DESCRIBE of topic number {@code index} (to compare answers, untimed). */
    boolean allowsDescribe(int index) {
        return authorizer.authorize(context, List.of(describeEveryTopic.get(index))).get(0)
                == AuthorizationResult.ALLOWED;
    }

    /** {@code TYPE:NAME} split at the first colon, as Kafka parses a principal. */
    private static KafkaPrincipal kafkaPrincipal(String principal) {
        int colon = principal.indexOf(':');
        return new KafkaPrincipal(principal.substring(0, colon), principal.substring(colon + 1));
    }

    @Override
    public void close() throws IOException {
        authorizer.close();
        metrics.close();
    }

    /** A Metadata request on a plaintext listener. */
    private record Context(KafkaPrincipal principal, InetAddress clientAddress) implements AuthorizableRequestContext {
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
            return "mq-bench";
        }

        @Override
        public int correlationId() {
            return 0;
        }
    }
}

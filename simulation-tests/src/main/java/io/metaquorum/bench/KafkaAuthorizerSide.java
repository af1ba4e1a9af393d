package io.metaquorum.bench;

import io.metaquorum.kafka.KafkaStandardAuthorizer;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
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
    /** The context's API key and version: Metadata v12. */
    private static final int METADATA = 3;
    private static final int METADATA_VERSION = 12;

    private final KafkaStandardAuthorizer authorizer;
    private final AuthorizableRequestContext context;
    private final List<Action> describeEveryTopic = new ArrayList<>();

    KafkaAuthorizerSide(List<MetadataRecord> aclRecords, List<String> topics, String principal, String host) {
        List<AccessControlEntryRecord> acls = new ArrayList<>(aclRecords.size());
        aclRecords.forEach(record -> acls.add(record.getAccessControlEntry()));
        authorizer = new KafkaStandardAuthorizer("", false, acls);
        context = KafkaStandardAuthorizer.context(principal, host, METADATA, METADATA_VERSION, "mq-bench");
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

    @Override
    public void close() {
        authorizer.close();
    }
}

package io.metaquorum.sim.system.invariant;

import io.metaquorum.kafka.KafkaStandardAuthorizer;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.image.AclsImage;
import java.util.List;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * The reference the authorization check judges by: Kafka's own {@code StandardAuthorizer}
 * (kafka-metadata 4.4.0) loaded with one image's ACL records and the nodes' settings, asked
 * as a Kafka broker asks it (one LITERAL resource per action, nothing logged). Independent of
 * metaquorum's {@code Authorizer}: it reads the records, not the image's index.
 */
final class KafkaAclReference implements AutoCloseable {
    /** The context's API key and version: CreateTopics v7, any admin request would do. */
    private static final int REQUEST_TYPE = 19;
    private static final int REQUEST_VERSION = 7;

    private final KafkaStandardAuthorizer authorizer;

    KafkaAclReference(AclsImage acls, AuthorizerSettings settings) {
        authorizer = new KafkaStandardAuthorizer(String.join(";", settings.superUsers()),
                settings.allowEveryoneIfNoAclFound(), acls.sortedById());
    }

    /** Kafka's answer for {@code principal} ({@code TYPE:NAME}) from {@code host}. */
    boolean allows(String principal, String host, AclOperation operation, ResourceType type, String name) {
        Action action = new Action(org.apache.kafka.common.acl.AclOperation.fromCode((byte) operation.code()),
                new ResourcePattern(org.apache.kafka.common.resource.ResourceType.fromCode((byte) type.code()), name,
                        PatternType.LITERAL), 1, false, false);
        return authorizer.authorize(KafkaStandardAuthorizer.context(principal, host, REQUEST_TYPE, REQUEST_VERSION,
                "mq-simulate"), List.of(action)).get(0) == AuthorizationResult.ALLOWED;
    }

    @Override
    public void close() {
        authorizer.close();
    }
}

package io.metaquorum.node.kafka;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.CallOrigin;
import java.util.Set;
import org.apache.kafka.common.protocol.Errors;

/**
 * Kafka's authorized-operations fields: a set of ACL operations as a 32-bit field, bit
 * {@code code} set for each. A topic's are given only beside a topic the caller may DESCRIBE,
 * as Kafka gives them; a topic refused keeps the "not asked" value, so nothing is told about it.
 */
final class AuthorizedOperations {
    /** The schema's default: the operations were not asked for. */
    static final int NOT_ASKED = Integer.MIN_VALUE;

    private AuthorizedOperations() {
    }

    static int bitField(Set<AclOperation> operations) {
        int bits = 0;
        for (AclOperation operation : operations) {
            bits |= 1 << operation.code();
        }
        return bits;
    }

    /** The field for topic {@code name} answered with {@code errorCode}. */
    static int ofTopic(AdminRequests admin, CallOrigin origin, String name, short errorCode) {
        if (name == null || errorCode == Errors.TOPIC_AUTHORIZATION_FAILED.code()) {
            return NOT_ASKED;
        }
        return bitField(admin.authorizedTopicOperations(origin, name));
    }
}

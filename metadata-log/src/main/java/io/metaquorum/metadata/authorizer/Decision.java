package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.image.AclEntry;

/**
 * The answer to an {@link AuthorizationRequest} and the rule that gave it.
 *
 * @param allowed          whether the request is allowed
 * @param rule             what decided
 * @param acl              the deciding ACL when {@code rule} is {@link Rule#ACL}, else null
 * @param resourceAclCount how many ACLs name the resource (any principal, host or operation);
 *                         zero for a super user, who is decided before any ACL is read
 */
public record Decision(AuthorizationRequest request, boolean allowed, Rule rule, AclEntry acl, int resourceAclCount) {
    /** What decided a request, in the order the authorizer asks. */
    public enum Rule {
        /** The principal is in {@code super.users}: allowed, ACLs unread. */
        SUPER_USER,
        /** An ACL matched: the lowest-id DENY if any matched, else the lowest-id ALLOW. */
        ACL,
        /** No ACL names the resource: {@code allow.everyone.if.no.acl.found} decides. */
        NO_ACL_FOR_RESOURCE,
        /** ACLs name the resource but none matches the principal, host and operation: denied. */
        NO_ACL_MATCHES
    }

    /**
     * One line that says the answer and why, e.g. {@code ALLOWED User:bob WRITE TOPIC orders
     * from 127.0.0.1 by ACL <id> (ALLOW User:* WRITE TOPIC PREFIXED ord)}.
     */
    public String explain() {
        String head = (allowed ? "ALLOWED " : "DENIED ") + request.text();
        return switch (rule) {
            case SUPER_USER -> head + ": super user";
            case ACL -> head + " by ACL " + acl.idText() + " (" + acl.describe() + impliedBy(acl) + ")";
            case NO_ACL_FOR_RESOURCE -> allowed
                    ? head + ": no ACL names the resource (allow.everyone.if.no.acl.found)"
                    : head + ": no ACL allows it (default deny)";
            case NO_ACL_MATCHES -> head + ": no ACL allows it (default deny; " + resourceAclCount
                    + (resourceAclCount == 1 ? " ACL names" : " ACLs name")
                    + " the resource, none for this principal, host and operation)";
        };
    }

    private String impliedBy(AclEntry entry) {
        AclOperation requested = request.operation();
        if (entry.operation() == requested) {
            return "";
        }
        return entry.operation() == AclOperation.ALL ? "; ALL covers " + requested
                : "; " + entry.operation() + " implies " + requested;
    }
}

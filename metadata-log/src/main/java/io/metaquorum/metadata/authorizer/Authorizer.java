package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.image.AclIndex;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.PrincipalAcls;

/**
 * Kafka's {@code StandardAuthorizer} as a pure function of a node's image: the same image,
 * settings and request give the same {@link Decision} on every node. The rules, in order:
 *
 * <ol>
 *   <li>A principal in {@code super.users} is allowed everything; no ACL is read.</li>
 *   <li>An ACL applies when its resource type is the request's and its pattern matches the
 *       name (LITERAL: the same name, or {@code *} unless the name starts with {@code *},
 *       a quirk of Kafka's scan kept for equal answers; PREFIXED: a prefix of the name, as
 *       {@code String.startsWith}); its principal is the request's or {@code User:*} (the only
 *       wildcard: {@code Group:*} is just a principal); its host is {@code *}, the request's
 *       address as an exact string, or a CIDR range holding it (Kafka 4.4.0); and its operation covers the request's ({@link
 *       io.metaquorum.metadata.image.AclEntry#covers}: ALL covers everything; for ALLOW only,
 *       READ, WRITE, DELETE and ALTER imply DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS).</li>
 *   <li>Any applying DENY denies, whatever ALLOWs apply; else any applying ALLOW allows.</li>
 *   <li>Else, if no ACL of any principal, host or operation names the resource,
 *       {@code allow.everyone.if.no.acl.found} decides; if some do, denied.</li>
 * </ol>
 *
 * <p>Kafka stops at the first DENY its scan meets, which depends on its sort order; the
 * answer does not, but an explanation must name one ACL, so this names the lowest id among
 * the applying DENYs (or ALLOWs). A request for an operation UNKNOWN, ANY or ALL is matched
 * only by ALL ACLs (and by ACLs naming it, which replay refuses), as in Kafka; a resource type
 * UNKNOWN or ANY has no ACLs (replay refuses them) and falls to rule 4. A request from the
 * principal {@code User:*} itself, which Kafka cannot decide (it throws), is matched by the
 * {@code User:*} ACLs like any other.
 *
 * <p>Cost: the ACLs are read through {@link io.metaquorum.metadata.image.AclIndex}, so a
 * decision costs a few hash lookups (two LITERAL, one per PREFIXED length in use) plus the
 * matching patterns' entries for this principal and {@code User:*}, never a pass over every ACL.
 * {@link #allows} answers by the same rules without naming the deciding ACL: it reads the
 * answer replay worked out per pattern and principal ({@link
 * io.metaquorum.metadata.image.PrincipalAcls}), reads no entry unless one names a host, and
 * allocates nothing: it is for the callers that filter many resources and explain nothing (a
 * Metadata request's topics), where {@link #decide}'s request, decision and scan of the entries
 * for the lowest id were most of the cost.
 */
public final class Authorizer {
    /** The name of the one CLUSTER resource, as Kafka's brokers name it in CLUSTER requests. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    private Authorizer() {
    }

    /**
     * Whether the request is allowed: {@code decide(...).allowed()}, at the cost of the answer
     * alone (no request, decision or deciding ACL is built). For a caller that needs the reason,
     * to log or return it, {@link #decide}.
     */
    public static boolean allows(AclsImage acls, AuthorizerSettings settings, String principal, String host,
                                 AclOperation operation, ResourceType resourceType, String resourceName) {
        if (settings.isSuperUser(principal)) {
            return true;
        }
        return answer(acls.index().verdict(resourceType, resourceName, principal, host, operation),
                settings.allowEveryoneIfNoAclFound());
    }

    /** Rules 3 and 4 on an {@link AclIndex#verdict}: a DENY denies, else an ALLOW allows, else the default. */
    static boolean answer(int verdict, boolean allowIfNoAcl) {
        if ((verdict & PrincipalAcls.DENIES) != 0) {
            return false;
        }
        if ((verdict & PrincipalAcls.ALLOWS) != 0) {
            return true;
        }
        return (verdict & AclIndex.MATCHED) == 0 && allowIfNoAcl;
    }

    /**
     * {@link #allows} for many names of one resource type, asked in ascending order, as a
     * listing of every topic asks them: the same answers, from a merge of the names with the
     * type's sorted patterns ({@link AclIndex#ascending}) rather than hash lookups per name.
     */
    public static AscendingDecisions ascending(AclsImage acls, AuthorizerSettings settings, String principal,
                                               String host, AclOperation operation, ResourceType resourceType) {
        if (settings.isSuperUser(principal)) {
            return AscendingDecisions.allowingAll();
        }
        return new AscendingDecisions(acls.index().ascending(resourceType, principal, host, operation),
                settings.allowEveryoneIfNoAclFound());
    }

    /** The decision for one request; see the class comment for the rules. */
    public static Decision decide(AclsImage acls, AuthorizerSettings settings, String principal, String host,
                                  AclOperation operation, ResourceType resourceType, String resourceName) {
        return decide(acls, settings, new AuthorizationRequest(principal, host, operation, resourceType, resourceName));
    }

    /** The decision for {@code request}; see the class comment for the rules. */
    public static Decision decide(AclsImage acls, AuthorizerSettings settings, AuthorizationRequest request) {
        if (settings.isSuperUser(request.principal())) {
            return new Decision(request, true, Decision.Rule.SUPER_USER, null, 0);
        }
        MatchingAcls matching = new MatchingAcls(request);
        acls.index().forEachPatternMatching(request.resourceType(), request.resourceName(), matching);
        return matching.decision(settings.allowEveryoneIfNoAclFound());
    }
}

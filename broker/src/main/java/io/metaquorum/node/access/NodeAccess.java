package io.metaquorum.node.access;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AscendingDecisions;
import io.metaquorum.metadata.authorizer.AuthorizationRequest;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.authorizer.Decision;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.Optional;

/**
 * A node's authorizer ({@code authorizer.enabled}): {@link Authorizer} over the image the
 * node answers from, with its {@code super.users} and {@code allow.everyone.if.no.acl.found},
 * and a line on the {@link AuditLog} for every denial. A call is answered by
 * {@link Authorizer#allows}, which builds nothing; a denial to log is decided again with
 * {@link Authorizer#decide} for its explanation. Disabled, it allows everything and
 * reads nothing, as a node without an authorizer does in Kafka.
 *
 * <p>Before any ACL is read, a request must pass {@link #admit}: a forwarding node needs
 * CLUSTER_ACTION on the cluster (Kafka's Envelope); the image must be at least at the caller's
 * last ACL change (read your own ACL writes, a super user's too: what it reads must hold what
 * it wrote); and it must be loaded, which a super user does not wait for, so the nodes' own
 * traffic (which carries no ACL change) never waits on the log it is needed to replicate.
 */
public final class NodeAccess {
    public static final NodeAccess DISABLED = new NodeAccess(false, AuthorizerSettings.DEFAULT, AuditLog.SLF4J);

    private final boolean enabled;
    private final AuthorizerSettings settings;
    private final AuditLog audit;

    private NodeAccess(boolean enabled, AuthorizerSettings settings, AuditLog audit) {
        this.enabled = enabled;
        this.settings = settings;
        this.audit = audit;
    }

    /** An authorizer with {@code settings} that writes denials on {@code audit}. */
    public static NodeAccess enabled(AuthorizerSettings settings, AuditLog audit) {
        return new NodeAccess(true, settings, audit);
    }

    public boolean isEnabled() {
        return enabled;
    }

    public AuthorizerSettings settings() {
        return settings;
    }

    /**
     * Whether this node may decide for {@code caller} on {@code image} at all; empty when it
     * may. Only the caller's principals are read: no ACL, so an unauthorized caller learns
     * nothing here.
     */
    public Optional<ApiError> admit(MetadataImage image, Caller caller, long aclOffset) {
        if (!enabled) {
            return Optional.empty();
        }
        if (caller.forwardedBy().isPresent()) {
            Principal node = caller.forwardedBy().get();
            Caller forwarder = new Caller(node, caller.host());
            if (!allows(image, forwarder, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, Authorizer.CLUSTER_NAME,
                    true)) {
                return Optional.of(ApiError.of(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "The node principal " + node
                        + " that forwarded the request may not do CLUSTER_ACTION on the cluster."));
            }
        }
        long offset = image.lastCommittedOffset();
        if (aclOffset > offset) {
            return Optional.of(ApiError.of(ErrorCode.AUTHORIZER_NOT_READY, "This node's metadata image is at offset "
                    + offset + ", behind the caller's last ACL change at offset " + aclOffset + "; retry."));
        }
        if (offset < 0 && !settings.isSuperUser(caller.principal().toString())) {
            return Optional.of(ApiError.of(ErrorCode.AUTHORIZER_NOT_READY,
                    "This node has not loaded its metadata image yet, so it cannot authorize the request; retry."));
        }
        return Optional.empty();
    }

    /**
     * Whether {@code caller} may do {@code operation} on the resource. A denial is written on
     * the audit log when {@code audited}; listings that leave out what the caller may not see
     * are not audited (Kafka logs those at DEBUG, and a listing would flood the log).
     */
    public boolean allows(MetadataImage image, Caller caller, AclOperation operation, ResourceType type, String name,
                          boolean audited) {
        if (!enabled) {
            return true;
        }
        String principal = caller.principal().toString();
        if (Authorizer.allows(image.acls(), settings, principal, caller.host(), operation, type, name)) {
            return true;
        }
        // The explanation costs a second walk, paid only for a denial that is logged.
        if (audited) {
            audit.denied(decide(image, caller, operation, type, name));
        }
        return false;
    }

    /**
     * {@link #allows}, not audited, for many resources of {@code type} asked in ascending name
     * order (a listing): the same answers from a merge with the sorted ACL patterns.
     */
    public AscendingDecisions ascending(MetadataImage image, Caller caller, AclOperation operation, ResourceType type) {
        if (!enabled) {
            return AscendingDecisions.allowingAll();
        }
        return Authorizer.ascending(image.acls(), settings, caller.principal().toString(), caller.host(), operation,
                type);
    }

    /** Whether {@code caller} may do {@code operation} on the cluster; denials audited. */
    public boolean allowsOnCluster(MetadataImage image, Caller caller, AclOperation operation) {
        return allows(image, caller, operation, ResourceType.CLUSTER, Authorizer.CLUSTER_NAME, true);
    }

    /** The decision and its rule, whether or not this node enforces it (ExplainAcl). */
    public Decision decide(MetadataImage image, Caller caller, AclOperation operation, ResourceType type,
                           String name) {
        return Authorizer.decide(image.acls(), settings, new AuthorizationRequest(caller.principal().toString(),
                caller.host(), operation, type, name));
    }
}

package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.image.AclEntry;
import io.metaquorum.metadata.image.PatternAcls;
import io.vavr.collection.Array;
import java.util.function.Consumer;

/**
 * Collects, for one request, what the patterns matching its resource hold: how many ACLs
 * they have, and the lowest-id DENY and lowest-id ALLOW among those that match the principal
 * (itself or {@code User:*}), the host and the operation. One per decision, never shared.
 */
final class MatchingAcls implements Consumer<PatternAcls> {
    private final AuthorizationRequest request;
    private AclEntry deny;
    private AclEntry allow;
    private int resourceAclCount;

    MatchingAcls(AuthorizationRequest request) {
        this.request = request;
    }

    @Override
    public void accept(PatternAcls pattern) {
        resourceAclCount += pattern.size();
        scan(pattern.entriesOf(request.principal()));
        if (!request.principal().equals(AclEntry.WILDCARD_PRINCIPAL)) {
            scan(pattern.entriesOf(AclEntry.WILDCARD_PRINCIPAL));
        }
    }

    /** The entries come in id order, so the first DENY of a set is its lowest and ends the set. */
    private void scan(Array<AclEntry> entries) {
        for (int i = 0; i < entries.size(); i++) {
            AclEntry entry = entries.get(i);
            if (!entry.coversHost(request.host()) || !entry.covers(request.operation())) {
                continue;
            }
            if (entry.permission() == PermissionType.DENY) {
                deny = lower(deny, entry);
                return;
            }
            allow = lower(allow, entry);
        }
    }

    private static AclEntry lower(AclEntry best, AclEntry candidate) {
        return best == null || candidate.id().compareTo(best.id()) < 0 ? candidate : best;
    }

    /** DENY beats ALLOW; with neither, the resource's having ACLs or not decides. */
    Decision decision(boolean allowEveryoneIfNoAclFound) {
        if (deny != null) {
            return new Decision(request, false, Decision.Rule.ACL, deny, resourceAclCount);
        }
        if (allow != null) {
            return new Decision(request, true, Decision.Rule.ACL, allow, resourceAclCount);
        }
        if (resourceAclCount == 0) {
            return new Decision(request, allowEveryoneIfNoAclFound, Decision.Rule.NO_ACL_FOR_RESOURCE, null, 0);
        }
        return new Decision(request, false, Decision.Rule.NO_ACL_MATCHES, null, resourceAclCount);
    }
}

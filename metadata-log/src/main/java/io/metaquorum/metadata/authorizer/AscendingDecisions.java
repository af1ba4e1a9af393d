package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.image.AscendingVerdicts;

/**
 * {@link Authorizer#allows} for one principal, host, operation and resource type over names
 * in ascending order: what a listing of every topic asks, one name after another as the
 * image's name index yields them ({@link Authorizer#ascending}). Same answers, at the cost of a
 * merge with the sorted patterns instead of hash lookups per name. One request's; not
 * thread-safe.
 */
public final class AscendingDecisions {
    private final AscendingVerdicts verdicts;
    private final boolean allowIfNoAcl;

    /** {@code verdicts} null: every name allowed (a super user, or no authorizer). */
    AscendingDecisions(AscendingVerdicts verdicts, boolean allowIfNoAcl) {
        this.verdicts = verdicts;
        this.allowIfNoAcl = allowIfNoAcl;
    }

    /** Every name allowed, reading nothing: a node without an authorizer. */
    public static AscendingDecisions allowingAll() {
        return new AscendingDecisions(null, true);
    }

    /** Whether the request for {@code name} is allowed; {@code name} must come after the last one asked. */
    public boolean allows(String name) {
        if (verdicts == null) {
            return true;
        }
        return Authorizer.answer(verdicts.verdict(name), allowIfNoAcl);
    }
}

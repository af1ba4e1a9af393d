package io.metaquorum.metadata.authorizer;

import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The two settings of Kafka's {@code StandardAuthorizer} that decide beside the ACLs:
 * {@code super.users}, principals ({@code TYPE:NAME}, compared as exact strings) allowed
 * everything, and {@code allow.everyone.if.no.acl.found}, the answer for a resource no ACL
 * names (false: denied).
 */
public record AuthorizerSettings(Set<String> superUsers, boolean allowEveryoneIfNoAclFound) {
    /** No super users; a resource without ACLs is denied (Kafka's defaults). */
    public static final AuthorizerSettings DEFAULT = new AuthorizerSettings(Collections.emptySet(), false);

    /** Keeps a sorted copy: the settings print the same on every node and cannot change under a decision. */
    public AuthorizerSettings {
        superUsers = Collections.unmodifiableSortedSet(new TreeSet<>(superUsers));
    }

    /**
     * The super users of a {@code super.users} value: principals separated by {@code ;},
     * trimmed, empty ones dropped (as Kafka reads it).
     */
    public static SortedSet<String> parseSuperUsers(String value) {
        TreeSet<String> users = new TreeSet<>();
        for (String part : value.split(";")) {
            String user = part.trim();
            if (!user.isEmpty()) {
                users.add(user);
            }
        }
        return Collections.unmodifiableSortedSet(users);
    }

    /** Whether {@code principal} is a super user. */
    public boolean isSuperUser(String principal) {
        return superUsers.contains(principal);
    }
}

package io.metaquorum.metadata.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.image.AclsImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * A walk over names in ascending order ({@link Authorizer#ascending}) answers every name as
 * {@link Authorizer#allows} answers it alone, for any ACLs (added and some removed), principal,
 * host, operation, resource type and settings, and for walks that reuse an index's cached views
 * (the same walk asked twice on one image).
 */
class AscendingDecisionsPropertyTest {
    private static final List<String> HOSTS = List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "::1");

    @Property(tries = 3000)
    void answersEachNameAsASingleDecisionDoes(@ForAll("acls") List<TestAcl> added, @ForAll long removalMask,
                                              @ForAll("types") ResourceType type, @ForAll("nameSets") Set<String> names,
                                              @ForAll("principals") String principal, @ForAll("hosts") String host,
                                              @ForAll("operations") AclOperation operation,
                                              @ForAll boolean allowIfNoAcl, @ForAll boolean superUser) {
        List<TestAcl> removed = new ArrayList<>();
        for (int i = 0; i < added.size(); i++) {
            if ((removalMask >>> i & 1) == 1) {
                removed.add(added.get(i));
            }
        }
        AclsImage acls = TestAcl.image(added, removed);
        AuthorizerSettings settings = new AuthorizerSettings(superUser ? Set.of(principal) : Set.of(), allowIfNoAcl);
        for (int pass = 0; pass < 2; pass++) {
            AscendingDecisions walk = Authorizer.ascending(acls, settings, principal, host, operation, type);
            for (String name : names) {
                assertEquals(Authorizer.allows(acls, settings, principal, host, operation, type, name),
                        walk.allows(name), () -> "name " + name + " in walk over " + names);
            }
        }
    }

    @Test
    void refusesANameThatDoesNotAscend() {
        AclsImage acls = TestAcl.image(TestAcl.allow(1, "User:alice", AclOperation.DESCRIBE, ResourceType.TOPIC,
                PatternType.PREFIXED, "a"));
        AscendingDecisions walk = Authorizer.ascending(acls, new AuthorizerSettings(Set.of(), false), "User:alice",
                "10.0.0.1", AclOperation.DESCRIBE, ResourceType.TOPIC);
        assertEquals(true, walk.allows("ab"));
        assertThrows(IllegalArgumentException.class, () -> walk.allows("ab"));
        assertThrows(IllegalArgumentException.class, () -> walk.allows("aa"));
    }

    @Provide
    Arbitrary<List<TestAcl>> acls() {
        return AclArbitraries.acls(40);
    }

    @Provide
    Arbitrary<ResourceType> types() {
        return AclArbitraries.types();
    }

    @Provide
    Arbitrary<Set<String>> nameSets() {
        return AclArbitraries.names(1, 5).set().ofMaxSize(30).map(TreeSet::new);
    }

    @Provide
    Arbitrary<String> principals() {
        return Arbitraries.of("User:alice", "User:bob", "User:carol", "Group:ops");
    }

    @Provide
    Arbitrary<String> hosts() {
        return Arbitraries.of(HOSTS);
    }

    @Provide
    Arbitrary<AclOperation> operations() {
        return AclArbitraries.commonOperations();
    }
}

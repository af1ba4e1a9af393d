package io.metaquorum.metadata.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.image.AclEntry;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.PatternAcls;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The image's ACL index hands a decision exactly the ACLs whose pattern matches the resource,
 * each once, after any mix of additions and removals: the index against a pass over every ACL.
 * (The LITERAL {@code *} does not match a name that starts with {@code *}: Kafka's quirk.)
 */
class AclIndexPropertyTest {
    @Property(tries = 2000)
    void visitsExactlyThePatternsThatMatchEachOnce(@ForAll("acls") List<TestAcl> added, @ForAll long removalMask,
                                                   @ForAll("types") ResourceType type,
                                                   @ForAll("names") String name) {
        List<TestAcl> removed = new ArrayList<>();
        List<TestAcl> left = new ArrayList<>();
        for (int i = 0; i < added.size(); i++) {
            ((removalMask >>> i & 1) == 1 ? removed : left).add(added.get(i));
        }
        AclsImage acls = TestAcl.image(added, removed);
        Set<Long> expected = new TreeSet<>();
        for (TestAcl acl : left) {
            if (acl.type() == type && (acl.pattern() == PatternType.LITERAL
                    ? acl.name().equals(name) || acl.name().equals("*") && !name.startsWith("*")
                    : name.startsWith(acl.name()))) {
                expected.add(acl.id());
            }
        }
        Set<Long> visited = new TreeSet<>();
        int[] sizes = {0};
        acls.index().forEachPatternMatching(type, name, (PatternAcls pattern) -> {
            sizes[0] += pattern.size();
            for (String principal : AclArbitraries.ACL_PRINCIPALS) {
                for (AclEntry entry : pattern.entriesOf(principal)) {
                    visited.add(entry.id().least());
                }
            }
        });
        assertEquals(expected, visited);
        assertEquals(expected.size(), sizes[0], "each matching pattern once");
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
    Arbitrary<String> names() {
        return AclArbitraries.names(0, 5);
    }
}

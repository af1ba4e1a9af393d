package io.metaquorum.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The ACL index's hash trie answers as a plain map after any puts and removals, lookups by a
 * prefix of a longer name included. The names include whole families of one {@link String}
 * hash ({@code Aa} and {@code BB} hash alike, and so do their concatenations), so collisions and
 * deep splits are common, and so do names whose hashes differ in the high bits only.
 */
class PatternMapTest {
    private static final List<String> NAMES = List.of("Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "a", "b", "ab",
            "orders", "orders-eu", "orders-eu-1", "*", "AaAaAa", "BBBBBB", "x".repeat(40));
    private static final List<ResourceType> TYPES = List.of(ResourceType.TOPIC, ResourceType.GROUP);

    record Step(boolean put, ResourceType type, String name) {
    }

    @Property(tries = 1000)
    void answersAsAPlainMap(@ForAll("steps") List<Step> steps) {
        PatternMap map = PatternMap.EMPTY;
        Map<String, PatternAcls> model = new TreeMap<>();
        long id = 0;
        for (Step step : steps) {
            String key = step.type().code() + ":" + step.name();
            if (step.put()) {
                PatternAcls pattern = pattern(step.type(), step.name(), ++id);
                map = map.put(pattern);
                model.put(key, pattern);
            } else {
                map = map.remove(step.type().code(), step.name());
                model.remove(key);
            }
            assertEquals(model.size(), map.size());
        }
        for (ResourceType type : TYPES) {
            for (String name : NAMES) {
                PatternAcls expected = model.get(type.code() + ":" + name);
                assertSame(expected, map.get(PatternKey.of(type.code(), name)), name);
                // The same pattern found as the prefix of a longer name, hashed as the index walks it.
                String longer = name + "-suffix";
                int hash = 0;
                for (int i = 0; i < name.length(); i++) {
                    hash = PatternKey.hashStep(hash, longer.charAt(i));
                }
                assertSame(expected, map.get(type.code(), longer, name.length(), PatternKey.hash(type.code(), hash)));
            }
        }
        assertNull(map.get(PatternKey.of(ResourceType.USER.code(), "Aa")));
    }

    /** Thousands of names fill every slot of the first levels, fragment 63 (the negative bit) included. */
    @Test
    void holdsThousandsOfPatternsThroughRemovals() {
        PatternMap map = PatternMap.EMPTY;
        Map<String, PatternAcls> model = new TreeMap<>();
        for (int i = 0; i < 20_000; i++) {
            PatternAcls pattern = pattern(ResourceType.TOPIC, "topic-" + i, i);
            map = map.put(pattern);
            model.put(pattern.name(), pattern);
        }
        for (int i = 0; i < 20_000; i += 3) {
            map = map.remove(ResourceType.TOPIC.code(), "topic-" + i);
            model.remove("topic-" + i);
        }
        assertEquals(model.size(), map.size());
        for (int i = 0; i < 20_000; i++) {
            String name = "topic-" + i;
            assertSame(model.get(name), map.get(PatternKey.of(ResourceType.TOPIC.code(), name)), name);
        }
    }

    private static PatternAcls pattern(ResourceType type, String name, long id) {
        return PatternAcls.of(new AclEntry(new UuidKey(0, id), type, name, PatternType.PREFIXED, "User:a", "*",
                AclOperation.READ, PermissionType.ALLOW));
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step = Combinators.combine(Arbitraries.of(true, true, false), Arbitraries.of(TYPES),
                Arbitraries.of(NAMES)).as(Step::new);
        return step.list().ofMaxSize(60);
    }
}

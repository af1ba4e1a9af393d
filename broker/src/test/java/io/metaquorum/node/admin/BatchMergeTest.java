package io.metaquorum.node.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A partly authorized batch answered one result per entry, in request order. */
class BatchMergeTest {
    private static BitSet denied(int... indexes) {
        BitSet out = new BitSet();
        for (int i : indexes) {
            out.set(i);
        }
        return out;
    }

    @Test
    void deniedEntriesTakeTheirPlaceBetweenTheDecidedOnes() {
        List<String> entries = List.of("a", "b", "c", "d");
        BitSet denied = denied(1, 3);
        assertEquals(List.of("a", "c"), BatchMerge.allowed(entries, denied));
        List<String> merged = BatchMerge.merge(entries, denied, Function.identity(), List.of("c:ok", "a:ok"),
                r -> r.substring(0, 1), e -> e + ":denied", false);
        assertEquals(List.of("a:ok", "b:denied", "c:ok", "d:denied"), merged);
    }

    @Test
    void distinctAnswersARepeatedKeyOnce() {
        List<String> entries = List.of("a", "a", "b", "b");
        List<String> merged = BatchMerge.merge(entries, denied(2, 3), Function.identity(), List.of("a:dup"),
                r -> r.substring(0, 1), e -> e + ":denied", true);
        assertEquals(List.of("a:dup", "b:denied"), merged);
    }

    @Test
    void nothingTheControllerAnsweredIsLost() {
        List<String> merged = BatchMerge.merge(List.of("a"), denied(), Function.identity(), List.of("a:ok", "z:odd"),
                r -> r.substring(0, 1), e -> e + ":denied", false);
        assertEquals(List.of("a:ok", "z:odd"), merged);
    }
}

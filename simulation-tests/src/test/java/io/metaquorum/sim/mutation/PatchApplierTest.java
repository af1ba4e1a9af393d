package io.metaquorum.sim.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mutation applies to the source it was written against, and to nothing else: a stale one stops the build. */
class PatchApplierTest {
    private static final List<String> SOURCE = List.of(
            "class Rule {",
            "    static long next(long majority, long start, long current) {",
            "        if (majority <= start) {",
            "            return current;",
            "        }",
            "        return Math.max(majority, current);",
            "    }",
            "}");
    private static final List<String> PATCH = List.of(
            "The rule forgets the epoch start.",
            "--- a/mod/src/main/java/Rule.java",
            "+++ b/mod/src/main/java/Rule.java",
            "@@ -2,5 +2,2 @@",
            "     static long next(long majority, long start, long current) {",
            "-        if (majority <= start) {",
            "-            return current;",
            "-        }",
            "         return Math.max(majority, current);");

    private static UnifiedPatch.FilePatch file(List<String> patch) {
        return UnifiedPatch.parse("test-mutation", patch).files().get(0);
    }

    @Test
    void aPatchAppliesToTheSourceItWasWrittenAgainst() {
        List<String> mutated = PatchApplier.apply("test-mutation", file(PATCH), SOURCE);
        assertEquals(List.of("class Rule {", "    static long next(long majority, long start, long current) {",
                "        return Math.max(majority, current);", "    }", "}"), mutated);
    }

    @Test
    void anEditElsewhereInTheFileDoesNotMakeItStale() {
        List<String> moved = new java.util.ArrayList<>(SOURCE);
        moved.add(1, "    // a comment added above the hunk");
        List<String> mutated = PatchApplier.apply("test-mutation", file(PATCH), moved);
        assertEquals("        return Math.max(majority, current);", mutated.get(3));
    }

    @Test
    void aStalePatchIsRejectedNamingTheMutationTheFileAndTheLine() {
        List<String> changed = new java.util.ArrayList<>(SOURCE);
        changed.set(2, "        if (majority < start) {");
        PatchException stale = assertThrows(PatchException.class,
                () -> PatchApplier.apply("test-mutation", file(PATCH), changed));
        String message = stale.getMessage();
        assertTrue(message.startsWith("mutation test-mutation: mod/src/main/java/Rule.java"), message);
        assertTrue(message.contains("no longer matches the production source"), message);
        assertTrue(message.contains("at line 3 the hunk expects 'if (majority <= start) {'"), message);
    }

    @Test
    void whitespaceIsNotForgiven() {
        List<String> reindented = SOURCE.stream().map(line -> line.replace("    ", "\t")).toList();
        assertThrows(PatchException.class, () -> PatchApplier.apply("test-mutation", file(PATCH), reindented));
    }

    @Test
    void aHunkMatchingTwoPlacesIsRejected() {
        List<String> twice = new java.util.ArrayList<>(SOURCE);
        twice.addAll(SOURCE);
        PatchException ambiguous = assertThrows(PatchException.class,
                () -> PatchApplier.apply("test-mutation", file(PATCH), twice));
        assertTrue(ambiguous.getMessage().contains("matches at lines 2 and 10"), ambiguous.getMessage());
    }

    @Test
    void malformedPatchesAreRejected() {
        List<String> wrongCount = PATCH.stream().map(line -> line.replace("@@ -2,5 +2,2 @@", "@@ -2,6 +2,2 @@"))
                .toList();
        assertThrows(PatchException.class, () -> UnifiedPatch.parse("m", wrongCount));
        assertThrows(PatchException.class, () -> UnifiedPatch.parse("m", List.of("just a description")));
        List<String> renamed = PATCH.stream().map(line -> line.replace("+++ b/mod/src/main/java/Rule.java",
                "+++ b/mod/src/main/java/Other.java")).toList();
        assertThrows(PatchException.class, () -> UnifiedPatch.parse("m", renamed));
        List<String> noChange = List.of("--- a/F.java", "+++ b/F.java", "@@ -1,1 +1,1 @@", " same");
        assertTrue(assertThrows(PatchException.class, () -> UnifiedPatch.parse("m", noChange)).getMessage()
                .contains("changes nothing"));
    }

    @Test
    void theBuildStepRejectsAStalePatchAndAMissingFile(@TempDir Path root) throws IOException {
        Path source = root.resolve("mod/src/main/java/Rule.java");
        Files.createDirectories(source.getParent());
        Path patches = Files.createDirectories(root.resolve("patches"));
        Files.write(patches.resolve("forget-start.patch"), PATCH, StandardCharsets.UTF_8);
        MutantCompiler compiler = new MutantCompiler(root, root.resolve("out/src"), root.resolve("out/classes"));

        PatchException missing = assertThrows(PatchException.class, () -> compiler.buildAll(patches));
        assertTrue(missing.getMessage().contains("mod/src/main/java/Rule.java, which does not exist"),
                missing.getMessage());

        Files.write(source, SOURCE.stream().map(line -> line.replace("<=", "<")).toList(), StandardCharsets.UTF_8);
        PatchException stale = assertThrows(PatchException.class, () -> compiler.buildAll(patches));
        assertTrue(stale.getMessage().startsWith("mutation forget-start:"), stale.getMessage());
        assertTrue(stale.getMessage().contains("no longer matches"), stale.getMessage());

        Files.write(source, SOURCE, StandardCharsets.UTF_8);
        assertEquals(List.of("forget-start"), compiler.buildAll(patches));
        assertTrue(Files.exists(root.resolve("out/classes/mutations/forget-start/Rule.class")));
        assertEquals(List.of("mod/src/main/java/Rule.java"),
                Files.readAllLines(root.resolve("out/classes/mutations/forget-start/targets.txt")));
    }
}

package io.metaquorum.sim.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.BrokenVariant;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The variants' mutations and the patches in {@code src/mutations} are the same set, each
 * built by the build, and each a small difference: a planted bug is a few lines, never a copy.
 */
class MutationCatalogTest {
    private static final Path PATCHES = Path.of("src/mutations");
    /** Changed lines (removed plus added) a mutation may have. */
    private static final int CHANGED_LINES_MAX = 16;

    private static Set<String> patchNames() throws IOException {
        try (Stream<Path> files = Files.list(PATCHES)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".patch"))
                    .map(n -> n.substring(0, n.length() - ".patch".length())).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void everyVariantsMutationHasAPatchAndEveryPatchAVariant() throws IOException {
        Set<String> mutations = Arrays.stream(BrokenVariant.values()).map(BrokenVariant::mutation)
                .filter(Objects::nonNull).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(11, mutations.size(), "the variants that break production code: " + mutations);
        assertEquals(mutations, patchNames());
    }

    @Test
    void everyPatchIsBuiltForTheFilesItNames() throws IOException {
        for (String name : patchNames()) {
            UnifiedPatch patch = UnifiedPatch.parse(name, Files.readAllLines(PATCHES.resolve(name + ".patch")));
            try (InputStream in = getClass().getClassLoader().getResourceAsStream(
                    MutantCompiler.MUTATIONS_DIRECTORY + name + "/" + MutantCompiler.TARGETS_FILE)) {
                assertNotNull(in, name + " is not built");
                assertEquals(patch.files().stream().map(UnifiedPatch.FilePatch::path).toList(),
                        new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
            }
            for (UnifiedPatch.FilePatch file : patch.files()) {
                assertTrue(Files.isRegularFile(Path.of("..").resolve(file.path())), file.path());
            }
        }
    }

    @Test
    void everyMutationIsAFewLines() throws IOException {
        for (String name : patchNames()) {
            long changed = Files.readAllLines(PATCHES.resolve(name + ".patch")).stream()
                    .filter(line -> (line.startsWith("+") && !line.startsWith("+++"))
                            || (line.startsWith("-") && !line.startsWith("---")))
                    .count();
            assertTrue(changed > 0 && changed <= CHANGED_LINES_MAX, name + " changes " + changed + " lines");
        }
    }
}

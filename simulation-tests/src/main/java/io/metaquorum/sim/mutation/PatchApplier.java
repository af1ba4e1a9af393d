package io.metaquorum.sim.mutation;

import io.metaquorum.sim.mutation.UnifiedPatch.FilePatch;
import io.metaquorum.sim.mutation.UnifiedPatch.Hunk;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies a mutation's hunks to the production source they name, with exact matching only:
 * each hunk's context and removed lines must appear in the file exactly once, character for
 * character, and the hunks in file order without overlapping. The stated line numbers are not
 * required (an edit elsewhere in the file moves them without making the mutation stale), but
 * no fuzz, whitespace leniency or partial context is accepted: a hunk that matches nowhere,
 * or in two places, is a {@link PatchException} naming the mutation, the file and the hunk.
 */
public final class PatchApplier {
    private PatchApplier() {
    }

    /** The lines of {@code source} (the text of {@code file.path()}) with the hunks applied. */
    public static List<String> apply(String mutation, FilePatch file, List<String> source) {
        List<String> result = new ArrayList<>();
        int copied = 0;
        for (Hunk hunk : file.hunks()) {
            int at = placeOf(mutation, file.path(), hunk, source);
            if (at < copied) {
                throw new PatchException(mutation, describe(file.path(), hunk)
                        + " matches before the end of the hunk above it: hunks must be in file order");
            }
            result.addAll(source.subList(copied, at));
            result.addAll(hunk.newLines());
            copied = at + hunk.oldLines().size();
        }
        result.addAll(source.subList(copied, source.size()));
        return result;
    }

    /** The 0-based line where the hunk's old lines are, the one place they are. */
    private static int placeOf(String mutation, String path, Hunk hunk, List<String> source) {
        int found = -1;
        for (int i = 0; i + hunk.oldLines().size() <= source.size(); i++) {
            if (matchesAt(hunk.oldLines(), source, i)) {
                if (found >= 0) {
                    throw new PatchException(mutation, describe(path, hunk) + " matches at lines " + (found + 1)
                            + " and " + (i + 1) + ": add context lines until it matches one place only");
                }
                found = i;
            }
        }
        if (found < 0) {
            throw new PatchException(mutation, describe(path, hunk) + " no longer matches the production source,"
                    + " which has changed; write the mutation again against it (" + firstDifference(hunk, source)
                    + ")");
        }
        return found;
    }

    private static boolean matchesAt(List<String> expected, List<String> source, int start) {
        for (int j = 0; j < expected.size(); j++) {
            if (!expected.get(j).equals(source.get(start + j))) {
                return false;
            }
        }
        return true;
    }

    /** Where the file, read at the hunk's stated line, first differs from what the hunk expects. */
    private static String firstDifference(Hunk hunk, List<String> source) {
        int start = Math.max(0, hunk.oldStart() - 1);
        for (int j = 0; j < hunk.oldLines().size(); j++) {
            int line = start + j;
            String actual = line < source.size() ? source.get(line) : null;
            if (!hunk.oldLines().get(j).equals(actual)) {
                return "at line " + (line + 1) + " the hunk expects '" + hunk.oldLines().get(j).strip()
                        + "', the file has " + (actual == null ? "no line" : "'" + actual.strip() + "'");
            }
        }
        return "the hunk's lines differ from the file's from line " + hunk.oldStart();
    }

    private static String describe(String path, Hunk hunk) {
        return path + ": the hunk at patch line " + hunk.patchLine() + " (" + hunk.header() + ")";
    }
}

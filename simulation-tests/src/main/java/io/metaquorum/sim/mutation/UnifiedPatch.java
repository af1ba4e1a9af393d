package io.metaquorum.sim.mutation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A mutation as written: a unified diff (the format of {@code diff -u} and {@code git diff})
 * of one or more production source files, named after the file it is kept in. Text before the
 * first {@code ---} line describes the mutation and is not applied. Each file section names
 * its file relative to the repository root ({@code a/} and {@code b/} prefixes allowed, the
 * same path on both lines: a mutation changes a file, it never creates, deletes or renames
 * one). Hunk headers' line counts must agree with their bodies, and every hunk must change a
 * line and carry at least one line of context or removal to be placed by.
 *
 * @param name  the mutation's name (its file name without {@code .patch})
 * @param files the file sections, in the order written
 */
public record UnifiedPatch(String name, List<FilePatch> files) {
    private static final Pattern HUNK_HEADER = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@.*$");

    /**
     * The changes of one file.
     *
     * @param path  the file, relative to the repository root
     * @param hunks its hunks, in file order
     */
    public record FilePatch(String path, List<Hunk> hunks) {
    }

    /**
     * One hunk: the lines it expects (context and removed lines, in order) and what replaces them.
     *
     * @param header     the hunk's {@code @@} line, for messages
     * @param patchLine  the 1-based line of that header in the patch file
     * @param oldStart   the 1-based line of the file where the hunk says it starts
     * @param oldLines   the lines the file must hold there
     * @param newLines   the lines that replace them
     */
    public record Hunk(String header, int patchLine, int oldStart, List<String> oldLines, List<String> newLines) {
    }

    /** Parses {@code lines}, the text of mutation {@code name}; a malformed patch is a {@link PatchException}. */
    public static UnifiedPatch parse(String name, List<String> lines) {
        List<FilePatch> files = new ArrayList<>();
        int i = 0;
        while (i < lines.size() && !lines.get(i).startsWith("--- ")) {
            i++;
        }
        while (i < lines.size()) {
            String oldPath = pathOf(name, lines.get(i), "--- ", i);
            if (i + 1 >= lines.size()) {
                throw new PatchException(name, "line " + (i + 1) + ": a '---' line with no '+++' line after it");
            }
            String newPath = pathOf(name, lines.get(i + 1), "+++ ", i + 1);
            if (!oldPath.equals(newPath)) {
                throw new PatchException(name, "line " + (i + 1) + ": a mutation changes a file in place, but '"
                        + oldPath + "' becomes '" + newPath + "'");
            }
            i += 2;
            List<Hunk> hunks = new ArrayList<>();
            while (i < lines.size() && lines.get(i).startsWith("@@")) {
                i = readHunk(name, lines, i, hunks);
            }
            if (hunks.isEmpty()) {
                throw new PatchException(name, "file " + oldPath + " has no hunk");
            }
            files.add(new FilePatch(oldPath, List.copyOf(hunks)));
            if (i < lines.size() && !lines.get(i).startsWith("--- ")) {
                throw new PatchException(name, "line " + (i + 1) + ": expected a hunk or a next file, found '"
                        + lines.get(i) + "'");
            }
        }
        if (files.isEmpty()) {
            throw new PatchException(name, "no '--- path' line: not a unified diff");
        }
        return new UnifiedPatch(name, List.copyOf(files));
    }

    private static String pathOf(String name, String line, String marker, int index) {
        if (!line.startsWith(marker)) {
            throw new PatchException(name, "line " + (index + 1) + ": expected '" + marker.trim() + " path'");
        }
        String path = line.substring(marker.length());
        int tab = path.indexOf('\t');
        path = (tab >= 0 ? path.substring(0, tab) : path).trim();
        if (path.startsWith("a/") || path.startsWith("b/")) {
            path = path.substring(2);
        }
        if (path.isEmpty() || path.equals("/dev/null") || path.startsWith("/") || path.contains("..")) {
            throw new PatchException(name, "line " + (index + 1) + ": '" + path
                    + "' is not a path inside the repository");
        }
        return path;
    }

    /** Reads the hunk whose header is at {@code start} into {@code hunks}; returns the index after it. */
    private static int readHunk(String name, List<String> lines, int start, List<Hunk> hunks) {
        String header = lines.get(start);
        Matcher m = HUNK_HEADER.matcher(header);
        if (!m.matches()) {
            throw new PatchException(name, "line " + (start + 1) + ": malformed hunk header '" + header + "'");
        }
        int oldCount = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
        int newCount = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
        List<String> oldLines = new ArrayList<>();
        List<String> newLines = new ArrayList<>();
        int i = start + 1;
        while (i < lines.size() && (oldLines.size() < oldCount || newLines.size() < newCount)) {
            String line = lines.get(i);
            // An editor that strips trailing blanks turns an empty context line " " into "".
            char kind = line.isEmpty() ? ' ' : line.charAt(0);
            String text = line.isEmpty() ? "" : line.substring(1);
            switch (kind) {
                case ' ' -> {
                    oldLines.add(text);
                    newLines.add(text);
                }
                case '-' -> oldLines.add(text);
                case '+' -> newLines.add(text);
                case '\\' -> { } // "\ No newline at end of file": a remark on the line before
                default -> throw new PatchException(name, "line " + (i + 1) + ": a hunk line must start with ' ',"
                        + " '-' or '+', found '" + line + "'");
            }
            i++;
        }
        if (oldLines.size() != oldCount || newLines.size() != newCount) {
            throw new PatchException(name, "hunk at line " + (start + 1) + " (" + header + ") has " + oldLines.size()
                    + " old and " + newLines.size() + " new lines, its header says " + oldCount + " and " + newCount);
        }
        if (oldLines.isEmpty() || oldLines.equals(newLines)) {
            throw new PatchException(name, "hunk at line " + (start + 1) + " (" + header + ") "
                    + (oldLines.isEmpty() ? "has no line to be placed by" : "changes nothing"));
        }
        hunks.add(new Hunk(header, start + 1, Integer.parseInt(m.group(1)), List.copyOf(oldLines),
                List.copyOf(newLines)));
        return i;
    }
}

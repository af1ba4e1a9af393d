package io.metaquorum.metadata.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Path text of the shell: absolute ({@code /topics/demo}) or relative to the working
 * directory, with {@code .} and {@code ..}; glob segments ({@code *}, {@code ?},
 * {@code [abc]}) expand against the tree's children, sorted.
 */
final class ShellPaths {
    /** Paths a glob expands to at most, so that {@code cat /topics/ * / *} on a huge image stays bounded. */
    static final int GLOB_MATCHES_MAX = 10_000_000;

    private ShellPaths() {
    }

    /** {@code text} resolved against {@code cwd}, normalized; {@code ..} above the root stays at the root. */
    static List<String> resolve(List<String> cwd, String text) {
        List<String> path = new ArrayList<>(text.startsWith("/") ? List.of() : cwd);
        for (String segment : text.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (!path.isEmpty()) {
                    path.remove(path.size() - 1);
                }
            } else {
                path.add(segment);
            }
        }
        return path;
    }

    static String text(List<String> path) {
        return "/" + String.join("/", path);
    }

    static boolean isGlob(String text) {
        return text.indexOf('*') >= 0 || text.indexOf('?') >= 0 || text.indexOf('[') >= 0;
    }

    /** Every existing path {@code text} matches, sorted; the path itself when it is no glob (existing or not). */
    static List<List<String>> expand(ImageTree tree, List<String> cwd, String text) {
        if (!isGlob(text)) {
            return List.of(resolve(cwd, text));
        }
        List<List<String>> matches = new ArrayList<>();
        matches.add(text.startsWith("/") ? List.of() : cwd);
        for (String segment : text.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            List<List<String>> next = new ArrayList<>();
            for (List<String> base : matches) {
                if (segment.equals("..")) {
                    next.add(base.isEmpty() ? base : base.subList(0, base.size() - 1));
                } else if (!isGlob(segment)) {
                    next.add(append(base, segment));
                } else {
                    List<String> children = tree.children(base);
                    Pattern pattern = globPattern(segment);
                    for (String child : children == null ? List.<String>of() : children) {
                        if (pattern.matcher(child).matches() && next.size() < GLOB_MATCHES_MAX) {
                            next.add(append(base, child));
                        }
                    }
                }
            }
            matches = next;
        }
        return matches.stream().filter(tree::exists).toList();
    }

    static List<String> append(List<String> base, String segment) {
        List<String> path = new ArrayList<>(base.size() + 1);
        path.addAll(base);
        path.add(segment);
        return path;
    }

    static Pattern globPattern(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                case '[' -> {
                    int close = glob.indexOf(']', i + 1);
                    if (close < 0) {
                        regex.append("\\[");
                    } else {
                        regex.append('[');
                        for (int j = i + 1; j < close; j++) {
                            char member = glob.charAt(j);
                            if (j == i + 1 && member == '!') {
                                regex.append('^');
                            } else if (Character.isLetterOrDigit(member) || member == '-') {
                                regex.append(member);
                            } else {
                                regex.append('\\').append(member);
                            }
                        }
                        regex.append(']');
                        i = close;
                    }
                }
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    /** Splits a command line into words: whitespace separates, single or double quotes group. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}

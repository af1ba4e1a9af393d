package io.metaquorum.metadata.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The commands of {@code mq-metadata shell} over an {@link ImageTree}: {@code ls}, {@code cd},
 * {@code cat}, {@code find}, {@code tree}, {@code pwd}, {@code history}, {@code help},
 * {@code exit}, with globs in paths, and the candidates for tab completion. Output goes to
 * line sinks, so the terminal adapter and the tests see the same text; nothing here touches
 * a terminal.
 *
 * <p>State: the working directory (always an existing directory) and the history (every
 * non-blank line executed, oldest first).
 */
public final class ShellSession {
    /** Command names with their one-line help, in the order {@code help} prints them. */
    static final List<String[]> COMMANDS = List.of(
            new String[] {"ls", "ls [PATH...]          list a directory (a file lists as itself)"},
            new String[] {"cd", "cd [PATH]             change directory (default /)"},
            new String[] {"cat", "cat PATH...           print files"},
            new String[] {"find", "find [PATH...]        every path under PATH (default .), depth first"},
            new String[] {"tree", "tree [PATH]           the subtree under PATH (default .), indented"},
            new String[] {"pwd", "pwd                   print the working directory"},
            new String[] {"history", "history               the commands run so far"},
            new String[] {"help", "help                  this list; paths may use globs (*, ?, [abc])"},
            new String[] {"exit", "exit                  leave the shell"});

    private final ImageTree tree;
    private final List<String> history = new ArrayList<>();
    private List<String> cwd = List.of();

    public ShellSession(ImageTree tree) {
        this.tree = tree;
    }

    public ImageTree tree() {
        return tree;
    }

    public String workingDirectory() {
        return ShellPaths.text(cwd);
    }

    public List<String> history() {
        return List.copyOf(history);
    }

    /**
     * Runs one command line; returns false when the shell should end ({@code exit}). Errors
     * are one line each on {@code err}, as {@code <command>: <what>}.
     */
    public boolean execute(String line, Consumer<String> out, Consumer<String> err) {
        List<String> words = ShellPaths.words(line);
        if (words.isEmpty()) {
            return true;
        }
        history.add(line.strip());
        String command = words.get(0);
        List<String> args = words.subList(1, words.size());
        switch (command) {
            case "ls" -> ls(args, out, err);
            case "cd" -> cd(args, err);
            case "cat" -> cat(args, out, err);
            case "find" -> find(args, out, err);
            case "tree" -> tree(args, out, err);
            case "pwd" -> out.accept(workingDirectory());
            case "history" -> {
                for (int i = 0; i < history.size(); i++) {
                    out.accept(String.format("%4d  %s", i + 1, history.get(i)));
                }
            }
            case "help" -> COMMANDS.forEach(entry -> out.accept(entry[1]));
            case "exit", "quit" -> {
                return false;
            }
            default -> err.accept(command + ": unknown command (try help)");
        }
        return true;
    }

    private void ls(List<String> args, Consumer<String> out, Consumer<String> err) {
        List<List<String>> paths = paths("ls", args.isEmpty() ? List.of(".") : args, err);
        boolean headers = paths.size() > 1;
        for (List<String> path : paths) {
            List<String> children = tree.children(path);
            if (children == null) {
                out.accept(ShellPaths.text(path));
                continue;
            }
            if (headers) {
                out.accept(ShellPaths.text(path) + ":");
            }
            children.forEach(out);
        }
    }

    private void cd(List<String> args, Consumer<String> err) {
        List<List<String>> paths = paths("cd", args.isEmpty() ? List.of("/") : args, err);
        if (paths.size() > 1) {
            err.accept("cd: " + args.get(0) + " names " + paths.size() + " directories");
        } else if (paths.size() == 1) {
            if (tree.isDirectory(paths.get(0))) {
                cwd = List.copyOf(paths.get(0));
            } else {
                err.accept("cd: " + ShellPaths.text(paths.get(0)) + ": not a directory");
            }
        }
    }

    private void cat(List<String> args, Consumer<String> out, Consumer<String> err) {
        if (args.isEmpty()) {
            err.accept("cat: give a file (try ls)");
        }
        for (List<String> path : paths("cat", args, err)) {
            String content = tree.content(path);
            if (content == null) {
                err.accept("cat: " + ShellPaths.text(path) + ": is a directory");
            } else {
                content.lines().forEach(out);
            }
        }
    }

    private void find(List<String> args, Consumer<String> out, Consumer<String> err) {
        for (List<String> path : paths("find", args.isEmpty() ? List.of(".") : args, err)) {
            walk(path, 0, false, out);
        }
    }

    private void tree(List<String> args, Consumer<String> out, Consumer<String> err) {
        for (List<String> path : paths("tree", args.isEmpty() ? List.of(".") : args, err)) {
            out.accept(ShellPaths.text(path));
            List<String> children = tree.children(path);
            if (children != null) {
                for (String child : children) {
                    walk(ShellPaths.append(path, child), 1, true, out);
                }
            }
        }
    }

    /** Depth first; {@code indented}: names under their parents (tree), else full paths (find). */
    private void walk(List<String> path, int depth, boolean indented, Consumer<String> out) {
        boolean directory = tree.isDirectory(path);
        out.accept(indented ? "  ".repeat(depth) + path.get(path.size() - 1) + (directory ? "/" : "")
                : ShellPaths.text(path));
        if (directory) {
            for (String child : tree.children(path)) {
                walk(ShellPaths.append(path, child), depth + 1, indented, out);
            }
        }
    }

    /** The existing paths the arguments name (globs expanded); one error line per argument that names none. */
    private List<List<String>> paths(String command, List<String> args, Consumer<String> err) {
        List<List<String>> paths = new ArrayList<>();
        for (String arg : args) {
            List<List<String>> matches = ShellPaths.expand(tree, cwd, arg);
            if (matches.isEmpty() || (matches.size() == 1 && !tree.exists(matches.get(0)))) {
                err.accept(command + ": " + arg + ": no such file or directory");
            } else {
                paths.addAll(matches);
            }
        }
        return paths;
    }

    /**
     * Tab completion of the last word of {@code line}: command names for the first word, else
     * the children of the word's directory that start with its last segment (a directory with
     * a trailing {@code /}).
     */
    public List<String> complete(String line) {
        List<String> words = ShellPaths.words(line);
        boolean newWord = line.isEmpty() || Character.isWhitespace(line.charAt(line.length() - 1));
        String word = newWord || words.isEmpty() ? "" : words.get(words.size() - 1);
        List<String> candidates = new ArrayList<>();
        if (words.isEmpty() || (words.size() == 1 && !newWord)) {
            COMMANDS.stream().map(entry -> entry[0]).filter(name -> name.startsWith(word)).sorted()
                    .forEach(candidates::add);
            return candidates;
        }
        int slash = word.lastIndexOf('/');
        String directoryText = slash < 0 ? "" : word.substring(0, slash + 1);
        String prefix = word.substring(slash + 1);
        List<String> directory = ShellPaths.resolve(cwd, directoryText.isEmpty() ? "." : directoryText);
        List<String> children = tree.children(directory);
        for (String child : children == null ? List.<String>of() : children) {
            if (child.startsWith(prefix)) {
                boolean childIsDirectory = tree.isDirectory(ShellPaths.append(directory, child));
                candidates.add(directoryText + child + (childIsDirectory ? "/" : ""));
            }
        }
        return candidates;
    }
}

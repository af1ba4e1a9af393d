package io.metaquorum.metadata.log.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One system call in an {@code strace -f -y} trace. A call that another thread interrupted in
 * the trace spans two lines: it started at {@code startLine} and returned at {@code endLine}
 * (equal for a call on one line), so "A returned before B started" is
 * {@code a.endLine() < b.startLine()}.
 *
 * @param arguments the argument text as strace printed it, strings still escaped
 * @param result the return value; -1 for a failure or a call that never returned
 */
record TracedCall(int startLine, int endLine, String name, String arguments, long result) {
    /** A file descriptor argument as {@code -y} prints it: {@code 63</path/to/file>}. */
    private static final Pattern FD_PATH = Pattern.compile("^-?\\d+<([^>]*)>");
    /** An optional directory descriptor, then a quoted path (renameat's and rename's arguments). */
    private static final Pattern PATH_ARGUMENT =
            Pattern.compile("(?:(AT_FDCWD|-?\\d+<([^>]*)>),\\s*)?\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    boolean succeeded() {
        return result >= 0;
    }

    /** The path of the file the first argument refers to, or "" when it is not a descriptor strace resolved. */
    String fdPath() {
        Matcher matcher = FD_PATH.matcher(arguments);
        return matcher.find() ? matcher.group(1) : "";
    }

    /** The first string argument as printed (the data of a {@code write}), or "". */
    String firstString() {
        Matcher matcher = QUOTED.matcher(arguments);
        return matcher.find() ? matcher.group(1) : "";
    }

    /** The path arguments, each resolved against its directory descriptor when it is relative. */
    List<String> paths() {
        List<String> paths = new ArrayList<>();
        Matcher matcher = PATH_ARGUMENT.matcher(arguments);
        while (matcher.find()) {
            String path = matcher.group(3);
            String directory = matcher.group(2);
            paths.add(path.startsWith("/") || directory == null ? path : directory + "/" + path);
        }
        return paths;
    }

    boolean isSync() {
        return name.equals("fsync") || name.equals("fdatasync");
    }

    boolean isWrite() {
        return name.startsWith("write") || name.startsWith("pwrite");
    }

    boolean isRename() {
        return name.startsWith("rename");
    }
}

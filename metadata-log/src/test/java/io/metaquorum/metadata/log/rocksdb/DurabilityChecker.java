package io.metaquorum.metadata.log.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges a system-call trace of a {@link SyncTracedWriter}: nothing it acknowledged may
 * depend on data that was not synced when the acknowledgement was written.
 *
 * <ul>
 *   <li>{@code ack B}: the last write to a WAL file ({@code NNNNNN.log}) holding the tag of
 *       the batch at base offset {@code B} returned before an {@code fsync} or
 *       {@code fdatasync} of that file started, and that sync returned, successfully, before
 *       the acknowledgement was written. {@code sync_file_range} starts write-back only and
 *       does not count.</li>
 *   <li>{@code snapshot NAME}: the file renamed to {@code NAME} was synced after its last
 *       write and before the rename, and its directory was synced after the rename returned
 *       and before the acknowledgement: without that, a crash can forget the rename.</li>
 * </ul>
 *
 * The order is the trace's own line order, in which a call's return always precedes whatever
 * the same process did because of it.
 */
final class DurabilityChecker {
    private static final Pattern ACKNOWLEDGEMENT = Pattern.compile("^(ack|snapshot) ([^\\\\\\s]+)");
    private static final Pattern WAL_FILE = Pattern.compile(".*/\\d+\\.log");

    private final List<TracedCall> calls;
    private final String markerPath;
    private final List<String> violations = new ArrayList<>();

    private DurabilityChecker(List<TracedCall> calls, String markerPath) {
        this.calls = calls;
        this.markerPath = markerPath;
    }

    /** Checks every acknowledgement written to {@code markerPath} in {@code calls}. */
    static DurabilityReport check(List<TracedCall> calls, String markerPath) {
        return new DurabilityChecker(calls, markerPath).run();
    }

    private DurabilityReport run() {
        int offsets = 0;
        int snapshots = 0;
        for (TracedCall call : calls) {
            if (!call.isWrite() || !call.fdPath().equals(markerPath)) {
                continue;
            }
            Matcher acknowledged = ACKNOWLEDGEMENT.matcher(call.firstString());
            if (!acknowledged.find()) {
                violations.add("line " + call.startLine() + ": unreadable acknowledgement " + call.firstString());
            } else if (acknowledged.group(1).equals("ack")) {
                offsets++;
                checkOffset(Long.parseLong(acknowledged.group(2)), call);
            } else {
                snapshots++;
                checkSnapshot(acknowledged.group(2), call);
            }
        }
        return new DurabilityReport(offsets, snapshots, List.copyOf(violations));
    }

    private void checkOffset(long baseOffset, TracedCall ack) {
        String tag = SyncTracedWriter.tag(baseOffset);
        Optional<TracedCall> written = lastBefore(ack.startLine(), call -> call.isWrite() && call.succeeded()
                && WAL_FILE.matcher(call.fdPath()).matches() && call.arguments().contains(tag));
        if (written.isEmpty()) {
            violations.add("offset " + baseOffset + ": acknowledged at line " + ack.startLine()
                    + " but written to no WAL file before it");
            return;
        }
        TracedCall write = written.get();
        if (!syncedBetween(write.fdPath(), write.endLine(), ack.startLine())) {
            violations.add("offset " + baseOffset + ": written to " + write.fdPath() + " at line "
                    + write.startLine() + ", acknowledged at line " + ack.startLine()
                    + " with no fsync or fdatasync of that file in between");
        }
    }

    private void checkSnapshot(String fileName, TracedCall ack) {
        Optional<TracedCall> renamed = lastBefore(ack.startLine(), call -> call.isRename() && call.succeeded()
                && call.paths().size() == 2 && call.paths().get(1).endsWith("/" + fileName));
        if (renamed.isEmpty()) {
            violations.add("snapshot " + fileName + ": acknowledged at line " + ack.startLine()
                    + " but never renamed into place before it");
            return;
        }
        TracedCall rename = renamed.get();
        String source = rename.paths().get(0);
        String target = rename.paths().get(1);
        int lastWrite = lastBefore(rename.startLine(), call -> call.isWrite() && call.fdPath().equals(source))
                .map(TracedCall::endLine).orElse(0);
        if (!syncedBetween(source, lastWrite, rename.startLine())) {
            violations.add("snapshot " + fileName + ": renamed at line " + rename.startLine()
                    + " with no fsync or fdatasync of " + source + " after its last write");
        }
        String directory = target.substring(0, target.lastIndexOf('/'));
        if (!syncedBetween(directory, rename.endLine(), ack.startLine())) {
            violations.add("snapshot " + fileName + ": directory " + directory + " not synced between the rename at line "
                    + rename.startLine() + " and the acknowledgement at line " + ack.startLine());
        }
    }

    /** Whether a sync of {@code path} started after line {@code after} and returned, successfully, before {@code before}. */
    private boolean syncedBetween(String path, int after, int before) {
        return calls.stream().anyMatch(call -> call.isSync() && call.succeeded() && call.fdPath().equals(path)
                && call.startLine() > after && call.endLine() < before);
    }

    /** The last call that returned before line {@code before} and matches. */
    private Optional<TracedCall> lastBefore(int before, Predicate<TracedCall> matching) {
        TracedCall last = null;
        for (TracedCall call : calls) {
            if (call.endLine() < before && matching.test(call) && (last == null || call.endLine() > last.endLine())) {
                last = call;
            }
        }
        return Optional.ofNullable(last);
    }
}

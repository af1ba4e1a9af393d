package io.metaquorum.process;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's metadata log as {@code bin/mq-metadata dump --json} prints it: one record a line,
 * {@code {"offset": 12, "epoch": 3, "type": "NoOpRecord", "record": {...}}}, in offset order.
 *
 * @param records in the order printed
 */
record DumpedLog(int nodeId, List<DumpedRecord> records) {
    private static final Pattern LINE = Pattern.compile(
            "\\{\"offset\": (\\d+), \"epoch\": (\\d+), \"type\": \"([A-Za-z]+)\", \"record\": .*}");

    /**
     * One printed record; {@code line} is the whole printed line, so two equal lines mean the
     * same offset, epoch, type and body.
     */
    record DumpedRecord(long offset, int epoch, String type, String line) {
    }

    DumpedLog {
        records = List.copyOf(records);
    }

    /** Parses the tool's stdout; every line must be a record. */
    static DumpedLog parse(int nodeId, String output) {
        List<DumpedRecord> records = new ArrayList<>();
        for (String line : output.lines().toList()) {
            Matcher matcher = LINE.matcher(line);
            if (!matcher.matches()) {
                throw new AssertionError("node " + nodeId + ": not a dump --json line: " + line);
            }
            records.add(new DumpedRecord(Long.parseLong(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                    matcher.group(3), line));
        }
        return new DumpedLog(nodeId, records);
    }

    /** The records below {@code endOffset}, in order. */
    List<DumpedRecord> below(long endOffset) {
        return records.stream().filter(r -> r.offset() < endOffset).toList();
    }

    /** One past the last printed offset; 0 for an empty log. */
    long endOffset() {
        return records.isEmpty() ? 0 : records.get(records.size() - 1).offset() + 1;
    }
}

package io.metaquorum.process;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The timestamps a node's server.log lines start with ({@code simplelogger.properties}:
 * {@code yyyy-MM-dd HH:mm:ss.SSS}). All nodes of a test run on one machine and read one
 * clock, so the timestamps of two causally ordered events in different nodes' logs are in
 * that order too; in this fixed-width format, string order is time order.
 */
final class LogTimestamps {
    private static final Pattern TIMESTAMP = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) ");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private LogTimestamps() {
    }

    /** The timestamp {@code line} starts with; empty for lines without one (stack traces, library output). */
    static Optional<String> of(String line) {
        Matcher matcher = TIMESTAMP.matcher(line);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** The timestamp of the first line of {@code log} that contains {@code text}. */
    static Optional<String> ofFirstLineContaining(String log, String text) {
        return log.lines().filter(line -> line.contains(text)).findFirst().flatMap(LogTimestamps::of);
    }

    /**
     * A timestamp of this format as milliseconds since the epoch, read in this JVM's time zone:
     * the nodes are children of the test JVM and inherit its environment, zone included.
     */
    static long epochMillis(String timestamp) {
        return LocalDateTime.parse(timestamp, FORMAT).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }
}

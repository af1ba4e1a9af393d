package io.metaquorum.raft.transport.grpc.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class GrpcJavaLoggingBridgeTest {
    private static final String LOGGER = "io.grpc.netty.shaded.test.Transport";

    private final ManualTime time = new ManualTime();
    private final GrpcJavaLoggingBridge bridge =
            new GrpcJavaLoggingBridge(new LineRateLimiter(time, LineRateLimiter.INTERVAL_MS));

    private static LogRecord record(Level level, String message, Throwable thrown) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName(LOGGER);
        record.setThrown(thrown);
        return record;
    }

    private static Throwable failure(String rootMessage) {
        return new RuntimeException("outer", new IllegalStateException("middle", new IOException(rootMessage)));
    }

    @Test
    void aRecordWithAThrowableIsOneLineWithItsRootCauseAndNoFrames() {
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            bridge.publish(record(Level.INFO, "Transport failed", failure("Connection reset\n\tat forged.Frame")));
            lines = err.lines();
        }
        assertEquals(List.of("[main] INFO " + LOGGER + " - Transport failed: IOException: Connection reset  at forged.Frame"),
                lines);
    }

    @Test
    void repeatsWithinTheIntervalAreCountedIntoTheNextLine() {
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            bridge.publish(record(Level.WARNING, "Transport failed", failure("reset")));
            for (int i = 0; i < 3; i++) {
                bridge.publish(record(Level.WARNING, "Transport failed", failure("reset " + i)));
            }
            // Another kind (another root cause class) has its own window.
            bridge.publish(record(Level.WARNING, "Transport failed", new IllegalStateException("x")));
            time.advanceMs(LineRateLimiter.INTERVAL_MS);
            bridge.publish(record(Level.WARNING, "Transport failed", failure("reset again")));
            lines = err.lines();
        }
        assertEquals(List.of(
                "[main] WARN " + LOGGER + " - Transport failed: IOException: reset",
                "[main] WARN " + LOGGER + " - Transport failed: IllegalStateException: x",
                "[main] WARN " + LOGGER + " - Transport failed: IOException: reset again"
                        + " (and 3 more like it in the last 10 s)"), lines);
    }

    @Test
    void levelsMapToSlf4jAndFineRecordsStayDropped() {
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            bridge.publish(record(Level.SEVERE, "severe {0}", null));
            bridge.publish(record(Level.FINE, "fine", null));
            bridge.publish(record(Level.FINEST, "finest", null));
            lines = err.lines();
        }
        assertEquals(List.of("[main] ERROR " + LOGGER + " - severe {0}"), lines);
    }

    @Test
    void installingTwiceLeavesOneBridgeAndNothingForTheRootConsole() {
        GrpcJavaLoggingBridge.installOnce();
        GrpcJavaLoggingBridge.installOnce();

        Logger grpc = Logger.getLogger(GrpcJavaLoggingBridge.GRPC_LOGGER);
        assertEquals(1, Arrays.stream(grpc.getHandlers()).filter(GrpcJavaLoggingBridge.class::isInstance).count());
        assertFalse(grpc.getUseParentHandlers());
    }

    @Test
    void aGrpcLoggerWritesThroughTheInstalledBridgeAndNotToTheRootConsole() {
        GrpcJavaLoggingBridge.installOnce();
        List<String> lines;
        List<String> atRoot;
        try (CapturedStderr err = new CapturedStderr(); JulRecordsAtRoot root = new JulRecordsAtRoot()) {
            Logger.getLogger(LOGGER + ".installed").log(Level.INFO, "through the bridge " + System.nanoTime(),
                    failure("boom"));
            lines = err.lines();
            atRoot = root.grpcRecords();
        }
        assertEquals(1, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).contains("INFO " + LOGGER + ".installed - through the bridge"), lines.get(0));
        assertTrue(lines.get(0).endsWith(": IOException: boom"), lines.get(0));
        assertEquals(List.of(), atRoot);
    }
}

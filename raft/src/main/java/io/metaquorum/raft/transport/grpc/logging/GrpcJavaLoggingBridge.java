package io.metaquorum.raft.transport.grpc.logging;

import io.metaquorum.common.time.SystemTime;
import java.util.Arrays;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what gRPC logs through java.util.logging to the node's slf4j log, one line per
 * record: the message, then the root cause's class and message, never a stack trace. gRPC
 * logs a failed connection ("Transport failed", logger {@code ...NettyServerTransport.connections})
 * with its whole trace, 25 lines a connection, and anyone who can reach the port can make
 * it do so; through this bridge such records cost one line per interval.
 *
 * <p>Rate limit: one line per (logger, message, root cause class) per
 * {@link LineRateLimiter#INTERVAL_MS}; the next one says how many were left out. Levels:
 * SEVERE is ERROR, WARNING is WARN, INFO is INFO, CONFIG is DEBUG; FINE and below are
 * dropped, as they were before (JUL's default level is INFO).
 *
 * <p>The handler sits on the {@code io.grpc} logger, parent of gRPC's and its shaded
 * Netty's loggers, which stops passing records to the root logger's console handler. That
 * logger is held here, since JUL keeps loggers only weakly and a collected one loses its
 * handlers.
 */
public final class GrpcJavaLoggingBridge extends Handler {
    static final String GRPC_LOGGER = "io.grpc";
    private static final Logger GRPC = Logger.getLogger(GRPC_LOGGER);

    private final LineRateLimiter limiter;

    GrpcJavaLoggingBridge(LineRateLimiter limiter) {
        this.limiter = limiter;
        setLevel(Level.CONFIG);
    }

    /**
     * Installs the bridge on the {@code io.grpc} logger unless one is there already; every
     * server start calls it, and a JUL reset (LogManager.readConfiguration) is repaired on
     * the next start.
     */
    public static synchronized void installOnce() {
        boolean installed = Arrays.stream(GRPC.getHandlers()).anyMatch(GrpcJavaLoggingBridge.class::isInstance);
        if (!installed) {
            GRPC.addHandler(new GrpcJavaLoggingBridge(new LineRateLimiter(SystemTime.INSTANCE,
                    LineRateLimiter.INTERVAL_MS)));
        }
        GRPC.setUseParentHandlers(false);
    }

    @Override
    public void publish(LogRecord record) {
        if (record == null || !isLoggable(record)) {
            return;
        }
        Throwable thrown = record.getThrown();
        Throwable root = thrown == null ? null : OneLine.rootCause(thrown);
        String loggerName = record.getLoggerName() == null ? GRPC_LOGGER : record.getLoggerName();
        Optional<LineRateLimiter.Admitted> admitted = limiter.maybeAdmit(
                new Key(loggerName, record.getMessage(), root == null ? null : root.getClass()));
        if (admitted.isEmpty()) {
            return;
        }
        String line = OneLine.of(formatted(record)) + (root == null ? "" : ": " + OneLine.describe(root))
                + admitted.get().suffix();
        org.slf4j.Logger target = LoggerFactory.getLogger(loggerName);
        int level = record.getLevel().intValue();
        if (level >= Level.SEVERE.intValue()) {
            target.error(line);
        } else if (level >= Level.WARNING.intValue()) {
            target.warn(line);
        } else if (level >= Level.INFO.intValue()) {
            target.info(line);
        } else {
            target.debug(line);
        }
    }

    /** The message with its parameters filled in; the raw pattern if they do not fit. */
    private static String formatted(LogRecord record) {
        Object[] parameters = record.getParameters();
        if (parameters == null || parameters.length == 0 || record.getMessage() == null) {
            return record.getMessage();
        }
        try {
            return java.text.MessageFormat.format(record.getMessage(), parameters);
        } catch (IllegalArgumentException e) {
            return record.getMessage();
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }

    /** What makes two records "the same kind" for the rate limit. */
    private record Key(String logger, String message, Class<?> rootCause) {
    }
}

package io.metaquorum.raft.transport.grpc.logging;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records what gRPC logs that reaches java.util.logging's root logger, whose console handler
 * would print it with its stack trace; the bridge is meant to leave nothing here.
 */
public final class JulRecordsAtRoot extends Handler implements AutoCloseable {
    private final List<String> grpcRecords = new CopyOnWriteArrayList<>();

    public JulRecordsAtRoot() {
        Logger.getLogger("").addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLoggerName() != null && record.getLoggerName().startsWith("io.grpc")) {
            grpcRecords.add(record.getLoggerName() + ": " + record.getMessage());
        }
    }

    /** The gRPC records that reached the root logger, as "logger: message". */
    public List<String> grpcRecords() {
        return List.copyOf(grpcRecords);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}

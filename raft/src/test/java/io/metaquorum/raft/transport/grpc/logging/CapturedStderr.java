package io.metaquorum.raft.transport.grpc.logging;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Captures what is written to {@code System.err} (where slf4j-simple writes in tests) while
 * it is open, and still passes it on. slf4j-simple looks {@code System.err} up on every
 * line, so its output is captured; JUL's console handler keeps the stream it was built with,
 * which is why the tests also watch JUL's root logger.
 */
public final class CapturedStderr implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    public CapturedStderr() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                synchronized (captured) {
                    captured.write(bytes, offset, length);
                }
                original.write(bytes, offset, length);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    /** The lines captured so far. */
    public List<String> lines() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Override
    public void close() {
        System.err.flush();
        System.setErr(original);
    }
}

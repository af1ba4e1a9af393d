package io.metaquorum.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Puts the node context ({@code [node 1] }) in front of every output line that does not
 * carry it yet, so that lines written by libraries (gRPC's java.util.logging, a JVM stack
 * trace) are attributed too (docs/engineering-rules.md rule 15). Lines are buffered until their newline
 * (at most {@link #LINE_BYTES_MAX}, then flushed as they are); callers go through a
 * {@link PrintStream}, which serializes writes.
 */
public final class NodeContextOutputStream extends OutputStream {
    static final int LINE_BYTES_MAX = 64 * 1024;

    private final OutputStream target;
    private final String context;
    private final byte[] prefix;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    public NodeContextOutputStream(OutputStream target, int nodeId) {
        this.target = target;
        this.context = "[node " + nodeId + "]";
        this.prefix = (context + " ").getBytes(StandardCharsets.UTF_8);
    }

    /** Replaces {@code System.out} and {@code System.err} with prefixing streams. */
    public static void install(int nodeId) {
        System.setOut(new PrintStream(new NodeContextOutputStream(System.out, nodeId), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new NodeContextOutputStream(System.err, nodeId), true, StandardCharsets.UTF_8));
    }

    @Override
    public void write(int b) throws IOException {
        line.write(b);
        if (b == '\n' || line.size() >= LINE_BYTES_MAX) {
            emitLine();
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    private void emitLine() throws IOException {
        String text = line.toString(StandardCharsets.UTF_8);
        if (!text.contains(context)) {
            target.write(prefix);
        }
        line.writeTo(target);
        line.reset();
    }

    @Override
    public void flush() throws IOException {
        target.flush();
    }

    @Override
    public void close() throws IOException {
        if (line.size() > 0) {
            emitLine();
        }
        target.flush();
    }
}

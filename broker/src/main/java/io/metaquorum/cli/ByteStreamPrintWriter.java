package io.metaquorum.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The writer a tool's {@code main} prints to stdout through (UTF-8, flushed at each line), which
 * also hands out the byte stream under it: {@code mq-metadata dump} encodes its output itself
 * and writes the bytes there, past the writer's encoder.
 */
final class ByteStreamPrintWriter extends PrintWriter {
    private final OutputStream stream;

    ByteStreamPrintWriter(OutputStream stream) {
        super(stream, true, StandardCharsets.UTF_8);
        this.stream = stream;
    }

    /** The stream under this writer, after what was printed through the writer so far. */
    OutputStream stream() {
        flush();
        return stream;
    }
}

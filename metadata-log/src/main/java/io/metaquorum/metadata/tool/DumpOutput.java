package io.metaquorum.metadata.tool;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What {@code mq-metadata dump} prints, encoded as UTF-8 straight into one 64 KiB byte buffer
 * that goes out in one write when full: no String per line, no {@code PrintWriter} and
 * encoder chain per call, numbers and ids written as digits and base64 characters in place.
 * The bytes are exactly what a {@code PrintWriter} over a UTF-8 stream prints for the same
 * text ({@code println}'s line separator included), so it can replace one.
 *
 * <p>A {@link Writer} target (picocli's, or a test's) gets the same text decoded back to
 * characters; an {@link OutputStream} target (stdout) the bytes as they are.
 */
public final class DumpOutput {
    private static final int BUFFER_BYTES = 1 << 16;
    /** Room for the longest single item written without a check per byte: a long's 20 characters, or an id's 22. */
    private static final int ITEM_BYTES_MAX = 24;
    private static final byte[] LINE_SEPARATOR = System.lineSeparator().getBytes(StandardCharsets.UTF_8);
    private static final byte[] BASE64_URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private static final int ID_CHARS = 22;
    /** -10^i for i = 0..9: an int of d digits is at most -10^(d-1) when negated. */
    private static final int[] NEGATIVE_POWERS_OF_TEN = {-1, -10, -100, -1_000, -10_000, -100_000, -1_000_000,
        -10_000_000, -100_000_000, -1_000_000_000};
    /** The tens and the ones digit of 0..99. */
    private static final byte[] DIGIT_TENS = new byte[100];
    private static final byte[] DIGIT_ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_TENS[i] = (byte) ('0' + i / 10);
            DIGIT_ONES[i] = (byte) ('0' + i % 10);
        }
    }

    private final byte[] buffer = new byte[BUFFER_BYTES];
    /** The last id written and its characters. */
    private final byte[] lastId = new byte[ID_CHARS];
    private long lastIdMost;
    private long lastIdLeast;
    private boolean hasLastId;
    private final Sink sink;
    private int position;

    private DumpOutput(Sink sink) {
        this.sink = sink;
    }

    /** Writes bytes to {@code out} (flushed by {@link #flush}). */
    public static DumpOutput to(OutputStream out) {
        return new DumpOutput(new StreamSink(out));
    }

    /** Writes the same text as characters to {@code out} (flushed by {@link #flush}). */
    public static DumpOutput to(Writer out) {
        return new DumpOutput(new WriterSink(out));
    }

    /** Bytes already encoded: a constant's, e.g. {@code ascii(" epoch: ")}. */
    public DumpOutput bytes(byte[] encoded) {
        if (encoded.length <= buffer.length - position) {
            System.arraycopy(encoded, 0, buffer, position, encoded.length);
            position += encoded.length;
            return this;
        }
        for (int from = 0; from < encoded.length; ) {
            room(1);
            int count = Math.min(encoded.length - from, buffer.length - position);
            System.arraycopy(encoded, from, buffer, position, count);
            position += count;
            from += count;
        }
        return this;
    }

    /** One ASCII character. */
    public DumpOutput ascii(char c) {
        room(1);
        buffer[position++] = (byte) c;
        return this;
    }

    /** Any text, in UTF-8 (a lone surrogate, which no decoded record holds, as {@code ?}, as Java's encoder does). */
    public DumpOutput text(CharSequence text) {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            if (buffer.length - position < 4) {
                drain();
            }
            char c = text.charAt(i);
            if (c < 0x80) {
                buffer[position++] = (byte) c;
            } else if (c < 0x800) {
                buffer[position++] = (byte) (0xC0 | c >> 6);
                buffer[position++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, text.charAt(++i));
                buffer[position++] = (byte) (0xF0 | codePoint >> 18);
                buffer[position++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                buffer[position++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                buffer[position++] = (byte) (0x80 | codePoint & 0x3F);
            } else if (Character.isSurrogate(c)) {
                buffer[position++] = '?';
            } else {
                buffer[position++] = (byte) (0xE0 | c >> 12);
                buffer[position++] = (byte) (0x80 | c >> 6 & 0x3F);
                buffer[position++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return this;
    }

    /** {@code value} in decimal, as {@code StringBuilder.append(long)} writes it. */
    public DumpOutput number(long value) {
        room(ITEM_BYTES_MAX);
        if (value >= 0 && value < 10) {
            // Replica ids, epochs and small partition numbers: most numbers of a dump.
            buffer[position++] = (byte) ('0' + value);
            return this;
        }
        if (value != (int) value) {
            return longNumber(value);
        }
        // Digits are taken off a negative number, so MIN_VALUE needs no special case; two at a
        // time, and with int division: C1, which compiles dump, divides by 10 as a division.
        int negative = (int) value;
        if (negative < 0) {
            buffer[position++] = '-';
        } else {
            negative = -negative;
        }
        int digits = 1;
        while (digits < NEGATIVE_POWERS_OF_TEN.length && negative <= NEGATIVE_POWERS_OF_TEN[digits]) {
            digits++;
        }
        int at = position + digits;
        position = at;
        while (negative <= -100) {
            int quotient = negative / 100;
            int pair = quotient * 100 - negative;
            buffer[--at] = DIGIT_ONES[pair];
            buffer[--at] = DIGIT_TENS[pair];
            negative = quotient;
        }
        if (negative <= -10) {
            buffer[--at] = DIGIT_ONES[-negative];
            buffer[--at] = DIGIT_TENS[-negative];
        } else {
            buffer[--at] = (byte) ('0' - negative);
        }
        return this;
    }

    private DumpOutput longNumber(long value) {
        long negative = value;
        if (value < 0) {
            buffer[position++] = '-';
        } else {
            negative = -value;
        }
        int digits = 1;
        for (long rest = negative; rest <= -10; rest /= 10) {
            digits++;
        }
        int end = position + digits;
        for (int i = end - 1; i >= position; i--) {
            buffer[i] = (byte) ('0' - negative % 10);
            negative /= 10;
        }
        position = end;
        return this;
    }

    /** A 128-bit id in Kafka's 22-character form: URL-safe base64 of its 16 big-endian bytes, no padding. */
    public DumpOutput id(long most, long least) {
        room(ITEM_BYTES_MAX);
        if (most == lastIdMost && least == lastIdLeast && hasLastId) {
            // The records of a topic follow each other, all with its id: copied from where it was last written.
            System.arraycopy(lastId, 0, buffer, position, ID_CHARS);
            position += ID_CHARS;
            return this;
        }
        int start = position;
        for (int group = 0; group < 5; group++) {
            int bits = idByte(most, least, group * 3) << 16 | idByte(most, least, group * 3 + 1) << 8
                    | idByte(most, least, group * 3 + 2);
            buffer[position++] = BASE64_URL[bits >>> 18];
            buffer[position++] = BASE64_URL[bits >>> 12 & 0x3F];
            buffer[position++] = BASE64_URL[bits >>> 6 & 0x3F];
            buffer[position++] = BASE64_URL[bits & 0x3F];
        }
        int last = idByte(most, least, 15);
        buffer[position++] = BASE64_URL[last >>> 2];
        buffer[position++] = BASE64_URL[(last & 0x3) << 4];
        System.arraycopy(buffer, start, lastId, 0, ID_CHARS);
        lastIdMost = most;
        lastIdLeast = least;
        hasLastId = true;
        return this;
    }

    private static int idByte(long most, long least, int index) {
        return (int) ((index < 8 ? most >>> (56 - 8 * index) : least >>> (56 - 8 * (index - 8))) & 0xFF);
    }

    /**
     * {@code value} as a JSON string literal, which is also how the text form quotes: quote,
     * backslash, newline, return and tab escaped by letter, other control characters as
     * {@code \}{@code u00XX} (the escaping of {@code RecordText.appendString}).
     */
    public DumpOutput quoted(String value) {
        room(1);
        buffer[position++] = '"';
        int plainFrom = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            text(value.subSequence(plainFrom, i));
            plainFrom = i + 1;
            room(6);
            buffer[position++] = '\\';
            switch (c) {
                case '"', '\\' -> buffer[position++] = (byte) c;
                case '\n' -> buffer[position++] = 'n';
                case '\r' -> buffer[position++] = 'r';
                case '\t' -> buffer[position++] = 't';
                default -> {
                    buffer[position++] = 'u';
                    buffer[position++] = '0';
                    buffer[position++] = '0';
                    buffer[position++] = HEX[c >> 4];
                    buffer[position++] = HEX[c & 0xF];
                }
            }
        }
        text(plainFrom == 0 ? value : value.subSequence(plainFrom, value.length()));
        room(1);
        buffer[position++] = '"';
        return this;
    }

    /** The end of a line: the platform's line separator, as {@code PrintWriter.println}. */
    public DumpOutput newline() {
        return bytes(LINE_SEPARATOR);
    }

    /** Writes out what is buffered and flushes the target. */
    public void flush() {
        drain();
        sink.flush();
    }

    private void room(int bytes) {
        if (buffer.length - position < bytes) {
            drain();
        }
    }

    private void drain() {
        int consumed = sink.write(buffer, position);
        // A writer target leaves the bytes of a character cut by the buffer's end for the next round.
        System.arraycopy(buffer, consumed, buffer, 0, position - consumed);
        position -= consumed;
    }

    /** Where the bytes go. */
    private interface Sink {
        /** Takes {@code bytes[0, length)}; returns how many it consumed (all but a cut character's start). */
        int write(byte[] bytes, int length);

        void flush();
    }

    private record StreamSink(OutputStream out) implements Sink {
        @Override
        public int write(byte[] bytes, int length) {
            try {
                out.write(bytes, 0, length);
            } catch (IOException e) {
                throw new UncheckedIOException("writing the dump failed: " + e.getMessage(), e);
            }
            return length;
        }

        @Override
        public void flush() {
            try {
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("writing the dump failed: " + e.getMessage(), e);
            }
        }
    }

    /** Decodes the UTF-8 back into characters; only ever sees valid UTF-8, since {@link DumpOutput} wrote it. */
    private static final class WriterSink implements Sink {
        private final Writer out;
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        private final CharBuffer chars = CharBuffer.allocate(BUFFER_BYTES);

        WriterSink(Writer out) {
            this.out = out;
        }

        @Override
        public int write(byte[] bytes, int length) {
            ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
            try {
                CoderResult result;
                do {
                    result = decoder.decode(in, chars, false);
                    out.write(chars.array(), 0, chars.position());
                    chars.clear();
                } while (result.isOverflow());
            } catch (IOException e) {
                throw new UncheckedIOException("writing the dump failed: " + e.getMessage(), e);
            }
            return in.position();
        }

        @Override
        public void flush() {
            try {
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("writing the dump failed: " + e.getMessage(), e);
            }
        }
    }
}

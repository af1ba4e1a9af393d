package io.metaquorum.metadata.tool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.record.RecordText;
import io.metaquorum.raft.TopicIds;
import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link DumpOutput} writes what the dump printed through strings: {@code Long.toString},
 * {@code TopicIds.toBase64}, {@code RecordText.appendString}, and text encoded as a UTF-8
 * {@code PrintWriter} encodes it, to a stream or (decoded again) to a writer, whatever the
 * buffer boundaries cut.
 */
class DumpOutputTest {
    @Property(tries = 500)
    void numbersAsLongToString(@ForAll long value) {
        assertEquals(Long.toString(value), printed(out -> out.number(value)));
    }

    @Test
    void extremeNumbers() {
        for (long value : new long[] {0, 9, 10, -1, -9, -10, 99, 100, Long.MIN_VALUE, Long.MAX_VALUE,
            Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertEquals(Long.toString(value), printed(out -> out.number(value)));
        }
    }

    @Property(tries = 500)
    void idsAsKafkasBase64(@ForAll long most, @ForAll long least) {
        assertEquals(TopicIds.toBase64(TopicIds.uuid(most, least)) + TopicIds.toBase64(TopicIds.uuid(most, least)),
                printed(out -> out.id(most, least).id(most, least)));
    }

    @Property(tries = 500)
    void quotedAsRecordText(@ForAll("strings") String value) {
        StringBuilder expected = new StringBuilder();
        RecordText.appendString(value, expected);
        assertEquals(expected.toString(), printed(out -> out.quoted(value)));
    }

    @Property(tries = 200)
    void textAcrossBufferBoundariesAsAUtf8PrintWriterPrintsIt(@ForAll("strings") String value,
                                                               @ForAll("paddings") int padding) {
        String text = "x".repeat(padding) + value;
        String expected = text.repeat(3) + System.lineSeparator();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DumpOutput stream = DumpOutput.to(bytes);
        stream.text(text).text(text).text(text).newline().flush();
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), bytes.toByteArray());
        assertEquals(expected, printed(out -> out.text(text).text(text).text(text).newline()));
    }

    @Test
    void aLoneSurrogateIsAQuestionMarkAsJavasEncoderWritesIt() {
        String lone = "a\ud800b\udc00c";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DumpOutput stream = DumpOutput.to(bytes);
        stream.text(lone).flush();
        assertArrayEquals(lone.getBytes(StandardCharsets.UTF_8), bytes.toByteArray());
    }

    @Provide
    Arbitrary<String> strings() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40),
                Arbitraries.strings().withChars("aé\u65e5\"\\\n\t\u0001\u001f").ofMaxLength(40),
                Arbitraries.strings().withCharRange('\u0000', '\uffff').ofMaxLength(40)
                        .filter(s -> s.codePoints().noneMatch(c -> c >= 0xD800 && c <= 0xDFFF)),
                Arbitraries.of("\ud83d\ude00", "a\ud83d\ude00b", "\ud83d\ude00\ud83d\ude00"));
    }

    @Provide
    Arbitrary<Integer> paddings() {
        return Arbitraries.integers().between((1 << 16) - 60, (1 << 16) + 5);
    }

    private interface Printing {
        void print(DumpOutput out);
    }

    private static String printed(Printing printing) {
        StringWriter text = new StringWriter();
        DumpOutput out = DumpOutput.to(text);
        printing.print(out);
        out.flush();
        return text.toString();
    }
}

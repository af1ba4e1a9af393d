package io.metaquorum.metadata.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.storage.CorruptLogException;
import java.io.StringWriter;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link PartitionRecordWire} prints exactly what decoding the record and printing it with
 * {@code RecordText} prints (the dump's ordinary path), for any partition record, and for any
 * mutation of one's bytes it either prints what protobuf decodes or declines.
 */
class PartitionRecordWireTest {
    private static final long OFFSET = 123_456;
    private static final int EPOCH = 7;

    @Property(tries = 300)
    void printsWhatTheDecodedRecordPrints(@ForAll("records") MetadataRecord record) {
        ByteString bytes = record.toByteString();
        PartitionRecordWire wire = new PartitionRecordWire();
        assertTrue(wire.read(bytes), record::toString);
        assertEquals(decodedLines(bytes), wireLines(wire));
    }

    @Property(tries = 1000)
    void anyMutationPrintsWhatProtobufDecodesOrIsDeclined(@ForAll("records") MetadataRecord record,
                                                          @ForAll("mutations") List<Integer> mutation) {
        byte[] bytes = record.toByteArray();
        if (bytes.length == 0) {
            return;
        }
        for (int i = 0; i + 1 < mutation.size(); i += 2) {
            bytes[Math.floorMod(mutation.get(i), bytes.length)] = (byte) (int) mutation.get(i + 1);
        }
        int length = mutation.size() % 2 == 1 ? Math.floorMod(mutation.get(mutation.size() - 1), bytes.length + 1)
                : bytes.length;
        PartitionRecordWire wire = new PartitionRecordWire();
        if (wire.read(bytes, 0, length)) {
            assertEquals(decodedLines(ByteString.copyFrom(bytes, 0, length)), wireLines(wire));
        }
    }

    @Test
    void declinesOtherRecordsAndWhatProtobufWouldMerge() {
        PartitionRecordWire wire = new PartitionRecordWire();
        assertFalse(wire.read(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName("t")).build()
                .toByteString()));
        assertFalse(wire.read(ByteString.EMPTY));
        PartitionRecord partition = PartitionRecord.newBuilder().setTopicId(TopicIds.uuid(1, 2)).build();
        ByteString twice = MetadataRecord.newBuilder().setPartition(partition).build().toByteString()
                .concat(MetadataRecord.newBuilder().setPartition(partition).build().toByteString());
        assertFalse(wire.read(twice));
        ByteString unknownField = MetadataRecord.newBuilder().setPartition(partition.toBuilder()
                .setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder().addField(99,
                        com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build()))
                .build().toByteString();
        assertFalse(wire.read(unknownField));
        assertTrue(wire.read(MetadataRecord.newBuilder().setVersion(2).setPartition(partition).build().toByteString()));
    }

    @Provide
    Arbitrary<MetadataRecord> records() {
        Arbitrary<Integer> ints = Arbitraries.oneOf(Arbitraries.integers().between(-2, 200), Arbitraries.integers());
        Arbitrary<List<Integer>> lists = ints.list().ofMaxSize(12);
        Arbitrary<PartitionRecord> partitions = Combinators.combine(Arbitraries.longs().injectDuplicates(0.2),
                Arbitraries.longs(), Arbitraries.of(true, false), ints, lists, lists,
                Combinators.combine(ints, ints, ints).as(List::of)).as((most, least, hasId, index, replicas, isr,
                    numbers) -> {
                PartitionRecord.Builder builder = PartitionRecord.newBuilder().setPartition(index)
                        .addAllReplicas(replicas).addAllIsr(isr).setLeader(numbers.get(0))
                        .setLeaderEpoch(numbers.get(1)).setPartitionEpoch(numbers.get(2));
                if (hasId) {
                    builder.setTopicId(TopicIds.uuid(most, least));
                }
                return builder.build();
            });
        return Combinators.combine(partitions, Arbitraries.integers().between(0, 3)).as((partition, version) ->
                MetadataRecord.newBuilder().setVersion(version).setPartition(partition).build());
    }

    @Provide
    Arbitrary<List<Integer>> mutations() {
        return Arbitraries.integers().between(-1000, 1000).list().ofMinSize(1).ofMaxSize(7);
    }

    /** The ordinary path: decoded by protobuf, printed by RecordText; "corrupt" when it does not decode. */
    private static String decodedLines(ByteString bytes) {
        try {
            DecodedRecord record = DecodedRecord.decode(OFFSET, EPOCH, false, bytes);
            return record.textLine() + System.lineSeparator() + record.jsonLine() + System.lineSeparator();
        } catch (CorruptLogException e) {
            return "corrupt";
        }
    }

    private static String wireLines(PartitionRecordWire wire) {
        StringWriter text = new StringWriter();
        DumpOutput out = DumpOutput.to(text);
        wire.printText(OFFSET, EPOCH, out);
        wire.printJson(OFFSET, EPOCH, out);
        out.flush();
        return text.toString();
    }
}

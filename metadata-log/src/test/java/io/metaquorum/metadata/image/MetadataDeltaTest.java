package io.metaquorum.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.record.RecordTypes;
import io.metaquorum.protocol.MetadataRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetadataDeltaTest {
    /** One record of every type in the closed set, built from the schema so a new type is covered at once. */
    private static List<MetadataRecord> oneOfEachType() {
        OneofDescriptor oneof = MetadataRecord.getDescriptor().getOneofs().get(0);
        return oneof.getFields().stream().map(MetadataDeltaTest::withField).toList();
    }

    private static MetadataRecord withField(FieldDescriptor field) {
        Message empty = MetadataRecord.newBuilder().newBuilderForField(field).build();
        return MetadataRecord.newBuilder().setField(field, empty).build();
    }

    @Test
    void everyRecordTypeIsDispatchedAndNamed() {
        Set<String> names = new HashSet<>();
        List<MetadataRecord> records = oneOfEachType();
        for (MetadataRecord record : records) {
            names.add(RecordTypes.typeName(record));
            assertEquals(RecordTypes.body(record).getDescriptorForType().getName(), RecordTypes.typeName(record));
            // An empty record of each type either applies or is refused as invalid, naming its
            // offset: no type falls through unhandled.
            MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
            try {
                delta.replay(record, 7, 1);
            } catch (InvalidRecordException e) {
                assertEquals(7, e.offset());
                assertTrue(e.getMessage().contains(RecordTypes.typeName(record)), e.getMessage());
            }
        }
        assertEquals(records.size(), names.size(), "every type has its own name");
        assertEquals(MetadataRecord.RecordCase.values().length - 1, records.size());
    }

    @Test
    void aRecordWithoutTypeIsRefused() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        InvalidRecordException e = assertThrows(InvalidRecordException.class,
                () -> delta.replay(MetadataRecord.getDefaultInstance(), 3, 1));
        assertEquals(3, e.offset());
    }

    @Test
    void aRecordOfAnUnknownVersionIsRefused() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        MetadataRecord future = MetadataRecordCodec.noOp().toBuilder().setVersion(1).build();
        InvalidRecordException e = assertThrows(InvalidRecordException.class, () -> delta.replay(future, 4, 1));
        assertTrue(e.getMessage().contains("offset 4"), e.getMessage());
    }

    @Test
    void everyIntermediateImageRoundTripsThroughItsRecords() {
        List<MetadataRecord> log = List.of(
                MetadataRecordCodec.featureLevel("metadata.version", 1),
                MetadataRecordCodec.noOp(),
                MetadataRecordCodec.featureLevel("b", 3),
                MetadataRecordCodec.featureLevel("a", 2),
                MetadataRecordCodec.featureLevel("b", 0),
                MetadataRecordCodec.featureLevel("metadata.version", 2));
        MetadataImage image = MetadataImage.EMPTY;
        for (int i = 0; i < log.size(); i++) {
            MetadataDelta delta = new MetadataDelta(image);
            delta.replay(log.get(i), i, 1);
            image = delta.apply();
            assertEquals(image, ImageTestSupport.rebuilt(image), "after record " + i);
        }
        assertEquals(Map.of("metadata.version", 2, "a", 2), image.features().levels());
    }
}
